;;; driver-common.el --- what every headless Emacs driver in test/editors/ shares  -*- lexical-binding: t; -*-
;; Debian's elpa packages on the load path; recording results (`rec', written as JSON to $OUT by
;; `finish-driver'); reading buffers and disk; waiting; recording what reaches the user (`message')
;; and any prompt (batch Emacs must never ask).  Loaded first by each *-driver.el.
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

;; What reaches the user: `message' (Eglot shows window/showMessage with it).
(defvar my-messages '())
;; Advising a primitive makes native-comp Emacs compile a trampoline (needs a C toolchain on PATH);
;; the callers here are byte-compiled, so plain advice is enough.
(setq comp-enable-subr-trampolines nil native-comp-enable-subr-trampolines nil)
(advice-add 'message :around
            (lambda (orig fmt &rest args)
              (when fmt (push (apply #'format-message fmt args) my-messages))
              (apply orig fmt args)))
;; Batch Emacs must never prompt; record it if anything does.
(fset 'y-or-n-p (lambda (prompt) (rec "prompted" prompt) t))
(fset 'yes-or-no-p (lambda (prompt) (rec "prompted" prompt) t))

(defun result-fields (prefix thunk)
  "Run THUNK (an editls command) and record its status, via, message and previewId under PREFIX, or its error."
  (condition-case err
      (let* ((r (funcall thunk))
             (files (editls--get r :files))
             (file (and (vectorp files) (> (length files) 0) (aref files 0))))
        (rec (concat prefix ".status") (editls--get r :status))
        (rec (concat prefix ".via") (and file (editls--get file :via)))
        (rec (concat prefix ".message") (editls--get r :message))
        (rec (concat prefix ".previewId") (editls--get r :previewId))
        r)
    (editls-error
     (rec (concat prefix ".error") (list (cons "kind" (nth 1 err)) (cons "message" (nth 2 err)) (cons "code" (nth 4 err))))
     nil)))

(defun driver-setup-lsp-mode ()
  "What a user sets in init.el for lsp-mode (not editls-specific), then the shipped editls.el."
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
  (transient-mark-mode 1))

(defun finish-driver ()
  "Write what was recorded (and the messages) as JSON to $OUT and leave Emacs."
  (rec "messages" (vconcat (reverse my-messages)))
  (let ((coding-system-for-write 'utf-8-unix))
    (write-region (json-encode my-out) nil (getenv "OUT") nil 'silent))
  (kill-emacs 0))

(provide 'driver-common)
