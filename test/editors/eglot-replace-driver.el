;;; eglot-replace-driver.el --- headless Eglot driver for test/editors/eglot-replace.test.ts  -*- lexical-binding: t; -*-
;; Emacs 28 + Eglot 1.9 (Debian) against dist/editls.js, configured by the shipped
;; client-examples/emacs/editls.el: M-x editls-replace-in-files (a preview as a diff), then
;; editls-apply-preview (the open buffer through Eglot's applyEdit, the closed file on disk) and one
;; undo; writes what buffers and disk hold as JSON to $OUT.  The test compares.
;; Run: WS=... SERVER=dist/editls.js OUT=out.json REPO=. emacs --batch -Q -l test/editors/eglot-replace-driver.el
(load (expand-file-name "test/editors/driver-common.el" (getenv "REPO")) nil t)

(defvar editls-command (list "node" (getenv "SERVER") "--stdio"))
(load (expand-file-name "client-examples/emacs/editls.el" (getenv "REPO")) nil t)
(require 'eglot)
(transient-mark-mode 1)

(condition-case top-err
    (let ((default-directory my-ws))
      (find-file (path "a.txt"))
      (call-interactively #'eglot)
      (rec "connected" (bool (wait-until 20 (lambda () (and (eglot-current-server) (eglot--managed-mode))))))
      ;; an unsaved change the replace must see, in its own undo step
      (goto-char (point-min)) (forward-line 1) (end-of-line) (insert " world")
      (undo-boundary)
      (rec "a.before" (buf-text "a.txt"))
      ;; 0. C-u M-x editls-replace-in-files as a user types it (batch Emacs reads the answers from
      ;; stdin): flags "im", at most 2 files: 3 would change, so it is refused and nothing changes.
      (setq my-messages nil)
      (let ((current-prefix-arg '(4))) (call-interactively #'editls-replace-in-files))
      (rec "limited.message" (cl-find-if (lambda (m) (string-match-p "max_files" m)) my-messages))
      (rec "limited.preview" (bool editls-last-preview))
      (rec "limited.a" (buf-text "a.txt"))
      ;; 1. the preview: a diff in *editls-replace*, nothing changed
      (editls-replace-in-files "world" "planet" :ignore_case t :preserve_case t)
      (rec "preview.id" editls-last-preview)
      (rec "preview.diff" (with-current-buffer "*editls-replace*" (buffer-substring-no-properties (point-min) (point-max))))
      (rec "preview.a" (buf-text "a.txt"))
      (rec "preview.disk_c" (disk "c.txt"))
      ;; 2. apply it: the buffer through Eglot (unsaved), the closed file on disk
      (switch-to-buffer (buf "a.txt"))
      (editls-apply-preview editls-last-preview)
      (wait-until 5 (lambda () (string-match-p "planet" (or (buf-text "a.txt") ""))))
      (rec "apply.a" (buf-text "a.txt"))
      (rec "apply.disk_a" (disk "a.txt"))
      (rec "apply.disk_c" (disk "c.txt"))
      (rec "apply.disk_b" (disk "b.txt"))
      (rec "apply.a_modified" (bool (buffer-modified-p (buf "a.txt"))))
      ;; 3. one undo reverts the buffer's part
      (with-current-buffer (buf "a.txt")
        (undo-boundary)
        (let ((last-command nil)) (undo)))
      (rec "undo.a" (buf-text "a.txt"))
      (rec "ok" t))
  (error (rec "ok" :json-false) (rec "error" (format "%S" top-err))))

(finish-driver)
