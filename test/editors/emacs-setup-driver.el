;;; emacs-setup-driver.el --- headless driver for test/editors/emacs-setup.test.ts  -*- lexical-binding: t; -*-
;; The documented set-up of client-examples/emacs/editls.el, as a user's init file has it: load the
;; file, then (add-hook 'find-file-hook #'editls-eglot-ensure) — or #'editls-lsp-ensure with
;; CLIENT=lsp.  Opens a .ts (fundamental-mode in Emacs 28) and a .js file (js-mode) and records
;; whether editls serves each; then runs M-x editls-replace once and records how many times its
;; summary reached the user.  Records JSON in $OUT.
(load (expand-file-name "test/editors/driver-common.el" (getenv "REPO")) nil t)

(defvar my-client (or (getenv "CLIENT") "eglot"))
(if (equal my-client "lsp")
    (driver-setup-lsp-mode)
  (defvar editls-command (list "node" (getenv "SERVER") "--stdio"))
  (load (expand-file-name "client-examples/emacs/editls.el" (getenv "REPO")) nil t)
  (require 'eglot))
;; The init file's line, as the README gives it.
(add-hook 'find-file-hook (if (equal my-client "lsp") #'editls-lsp-ensure #'editls-eglot-ensure))

;; Batch Emacs has no command loop: after an interactive command Emacs runs `post-command-hook'
;; (where `eglot-ensure' connects) and, once idle, its zero-delay idle timers (where `lsp-deferred'
;; starts lsp-mode).  This does both, as the command loop would after C-x C-f.
(defun after-command ()
  (run-hooks 'post-command-hook)
  (dolist (timer (copy-sequence timer-idle-list))
    (when (time-equal-p (timer--time timer) 0)
      (cancel-timer timer)
      (timer-event-handler timer))))

(defun editls-serves-p ()
  "Whether this buffer is connected to editls (Eglot's server or lsp-mode's editls workspace)."
  (wait-until 20 (lambda ()
                   (if (equal my-client "lsp")
                       (and (bound-and-true-p lsp-mode) (editls--lsp-mode-workspace)
                            (eq (lsp--workspace-status (editls--lsp-mode-workspace)) 'initialized))
                     (and (eglot-current-server) (bound-and-true-p eglot--managed-mode))))))

(condition-case top-err
    (let ((default-directory my-ws))
      (dolist (name '("lib.ts" "app.js"))
        (find-file (path name))
        (after-command)
        (rec (concat name ".major-mode") (symbol-name major-mode))
        (rec (concat name ".served") (bool (editls-serves-p))))
      ;; One command as a user runs it: its summary reaches the user once.
      (find-file (path "app.js"))
      (setq my-messages nil)
      (editls-replace "alpha" "beta")
      (wait-until 5 (lambda () (cl-some (lambda (m) (string-match-p "1 replacement in app.js" m)) my-messages)))
      ;; editls sends its window/showMessage before the command's response, and a second echo would
      ;; come from editls--report when the response arrives: both are in by the time it returns.
      (rec "replace.buffer" (buf-text "app.js"))
      (rec "replace.summaries" (length (cl-remove-if-not (lambda (m) (string-match-p "1 replacement in app.js" m)) my-messages)))
      (rec "ok" t))
  (error (rec "ok" :json-false) (rec "error" (error-message-string top-err))))
(finish-driver)
