;;; lspmode-newuser-driver.el --- headless lsp-mode driver for test/editors/lspmode-newuser.test.ts  -*- lexical-binding: t; -*-
;; Emacs 28 + lsp-mode 8.0.0 with the shipped client-examples/emacs/editls.el as a new user meets
;; it: editls still serves a buffer after revert-buffer, M-x editls-symbols lands on the right line
;; (lsp-mode's own xref-find-apropos is one line early), and a preview's hint wording.
;; Run: WS=... SERVER=dist/editls.js OUT=out.json REPO=. emacs --batch -Q -l test/editors/lspmode-newuser-driver.el
(dolist (d (directory-files "/usr/share/emacs/site-lisp/elpa" t "^[a-z]"))
  (add-to-list 'load-path d))
(require 'cl-lib)
(require 'json)
(require 'subr-x)

(defvar my-ws (file-name-as-directory (getenv "WS")))
(defvar my-out '())
(defun rec (k v) (push (cons k v) my-out))
(defun bool (x) (if x t :json-false))
(defun path (name) (expand-file-name name my-ws))
(defun disk (name)
  (let ((f (path name)))
    (when (file-exists-p f)
      (with-temp-buffer (let ((coding-system-for-read 'utf-8-unix)) (insert-file-contents f)) (buffer-string)))))
(defun buf (name) (find-buffer-visiting (path name)))
(defun buf-text (name)
  (let ((b (buf name)))
    (and b (with-current-buffer b (buffer-substring-no-properties (point-min) (point-max))))))
(defun wait-until (secs pred)
  (with-timeout (secs nil)
    (while (not (funcall pred)) (accept-process-output nil 0.05))
    t))

(defvar my-messages '())
;; Advising a primitive makes native-comp Emacs compile a trampoline (needs a C toolchain on PATH);
;; the callers here are byte-compiled, so plain advice is enough.
(setq comp-enable-subr-trampolines nil native-comp-enable-subr-trampolines nil)
(advice-add 'message :around
            (lambda (orig fmt &rest args)
              (when fmt (push (apply #'format-message fmt args) my-messages))
              (apply orig fmt args)))
(fset 'y-or-n-p (lambda (prompt) (rec "prompted" prompt) t))
(fset 'yes-or-no-p (lambda (prompt) (rec "prompted" prompt) t))

;; What a user sets in init.el for lsp-mode (not editls-specific).
(require 'lsp-mode)
(setq lsp-auto-guess-root t            ; no "import project?" prompt
      lsp-session-file (expand-file-name ".lsp-session" my-ws)
      lsp-enable-file-watchers nil
      lsp-keep-workspace-alive nil
      lsp-restart 'ignore
      lsp-headerline-breadcrumb-enable nil
      lsp-modeline-code-actions-enable nil
      lsp-modeline-diagnostics-enable nil
      lsp-modeline-workspace-status-enable nil
      lsp-lens-enable nil)
(defvar editls-command (list "node" (getenv "SERVER") "--stdio"))
(load (expand-file-name "client-examples/emacs/editls.el" (getenv "REPO")) nil t)
(transient-mark-mode 1)

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

(rec "messages" (vconcat (reverse my-messages)))
(let ((coding-system-for-write 'utf-8-unix))
  (write-region (json-encode my-out) nil (getenv "OUT") nil 'silent))
(kill-emacs 0)
