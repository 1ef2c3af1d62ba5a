;;; editls.el --- register editls with Eglot or lsp-mode  -*- lexical-binding: t; -*-
;; Set `editls-command' to how editls starts on your machine, then load this file.

(defvar editls-command '("node" "/path/to/editls/dist/editls.js" "--stdio"))

;; Eglot: editls for text and programming modes; do not ask before every server edit.
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs `((text-mode prog-mode) . ,editls-command))
  (setq eglot-confirm-server-initiated-edits nil)   ; Eglot <= 1.16
  (setq eglot-confirm-server-edits nil))            ; Eglot >= 1.17

;; lsp-mode: an add-on server next to the language's own.
(with-eval-after-load 'lsp-mode
  (lsp-register-client
   (make-lsp-client :new-connection (lsp-stdio-connection (lambda () editls-command))
                    :activation-fn (lambda (&rest _) t)
                    :add-on? t
                    :server-id 'editls)))

(defun editls-execute (command args)
  "Run editls COMMAND with ARGS (a plist) and return the result."
  (cond
   ((and (fboundp 'eglot-current-server) (eglot-current-server))
    (if (fboundp 'eglot-execute)
        (eglot-execute (eglot-current-server) (list :command command :arguments (vector args)))
      (eglot-execute-command (eglot-current-server) (intern command) (vector args))))
   ((fboundp 'lsp-request)
    (lsp-request "workspace/executeCommand" (list :command command :arguments (vector args))))
   (t (user-error "editls: no Eglot or lsp-mode session"))))

(provide 'editls)
;;; editls.el ends here
