;;; lspmode-newuser-driver.el --- headless lsp-mode driver for test/editors/lspmode-newuser.test.ts  -*- lexical-binding: t; -*-
;; Emacs 28 + lsp-mode 8.0.0 with the shipped client-examples/emacs/editls.el as a new user meets
;; it: editls still serves a buffer after revert-buffer, M-x editls-symbols lands on the right line
;; (lsp-mode's own xref-find-apropos is one line early), and a preview's hint wording.
;; Run: WS=... SERVER=dist/editls.js OUT=out.json REPO=. emacs --batch -Q -l test/editors/lspmode-newuser-driver.el
(load (expand-file-name "test/editors/driver-common.el" (getenv "REPO")) nil t)

(driver-setup-lsp-mode)

(defun initialized-p ()
  (and (editls--lsp-mode-workspace) (eq (lsp--workspace-status (editls--lsp-mode-workspace)) 'initialized)))

(defun editls-hints ()
  (mapcar (lambda (d) (gethash "message" d))
          (cl-remove-if-not (lambda (d) (equal (gethash "source" d) "editls")) (lsp--get-buffer-diagnostics))))

(condition-case top-err
    (let ((default-directory my-ws))
      (find-file (path "a.txt"))
      (lsp)
      (rec "connected" (bool (wait-until 20 #'initialized-p)))

      ;; 1. revert-buffer: lsp-mode re-runs the major mode; editls must serve the buffer again
      (revert-buffer t t)
      (rec "revert.lsp-mode" (bool (wait-until 10 (lambda () (bound-and-true-p lsp-mode)))))
      (rec "revert.connected" (bool (wait-until 20 #'initialized-p)))
      (rec "revert.edit" (condition-case err
                             (editls--get (editls-execute "editls.edit" (list :file_path "a.txt" :old_string "second" :new_string "2nd")) :status)
                           (error (error-message-string err))))
      (rec "revert.buffer" (buf-text "a.txt"))

      ;; 2. the preview hint names the word (world -> word, not a deleted "l")
      (editls-replace "world" "word" t)
      (rec "hint.ready" (bool (wait-until 10 (lambda () (editls-hints)))))
      (rec "hint.texts" (vconcat (editls-hints)))
      (rec "hint.buffer" (buf-text "a.txt"))

      ;; 3. lsp-mode 8's own workspace-symbol xref (its known off-by-one), then M-x editls-symbols
      (let* ((items (xref-backend-apropos 'xref-lsp "fooBarBaz"))
             (loc (and items (xref-item-location (car items)))))
        (rec "xref.line" (and loc (xref-file-location-line loc))))
      (editls-symbols "fooBarBaz")
      (rec "symbols.file" (file-name-nondirectory (or buffer-file-name "")))
      (rec "symbols.line" (line-number-at-pos))
      (rec "symbols.text" (buffer-substring-no-properties (line-beginning-position) (line-end-position)))
      (rec "ok" t))
  (error (rec "ok" :json-false) (rec "error" (format "%S" top-err))))

(finish-driver)
