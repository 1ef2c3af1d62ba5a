;;; eglot-newuser-driver.el --- headless Eglot driver for test/editors/eglot-newuser.test.ts  -*- lexical-binding: t; -*-
;; Emacs 28 + Eglot 1.9 with the shipped client-examples/emacs/editls.el as a new user meets it:
;; the default `editls-command' (editls on PATH, as after `npm install -g editls'), M-x eglot in a
;; .ts file (fundamental-mode in Emacs 28), `editls-eglot-modes' set with setq after loading,
;; M-x editls-symbols, and a preview's hint wording.  Records JSON in $OUT; the test compares.
;; Run: WS=... SERVER=dist/editls.js OUT=out.json REPO=. emacs --batch -Q -l test/editors/eglot-newuser-driver.el
(load (expand-file-name "test/editors/driver-common.el" (getenv "REPO")) nil t)

(fset 'read-shell-command (lambda (prompt &rest _) (rec "prompted" prompt) (error "prompted: %s" prompt)))

;; `editls' on PATH, as `npm install -g editls' leaves it: the bundle is its own executable.
(let ((bin (expand-file-name ".bin" my-ws)))
  (make-directory bin t)
  (make-symbolic-link (getenv "SERVER") (expand-file-name "editls" bin) t)
  (setenv "PATH" (concat bin ":" (getenv "PATH")))
  (push bin exec-path))
(load (expand-file-name "client-examples/emacs/editls.el" (getenv "REPO")) nil t)
(require 'eglot)
(require 'flymake)
(transient-mark-mode 1)

(defun connected-p ()
  (wait-until 20 (lambda () (and (eglot-current-server) eglot--managed-mode))))

(condition-case top-err
    (let ((default-directory my-ws))
      (rec "default-command" (vconcat editls-command))
      ;; 1. a .ts file: fundamental-mode in Emacs 28; M-x eglot connects it to editls
      (find-file (path "lib.ts"))
      (rec "ts.major-mode" (symbol-name major-mode))
      (condition-case err (call-interactively #'eglot) (error (rec "ts.error" (error-message-string err))))
      (rec "ts.connected" (bool (connected-p)))
      (flymake-start nil t)
      (rec "ts.edit" (editls--get (editls-execute "editls.edit" (list :file_path "lib.ts" :old_string "fooBarBaz" :new_string "fooBarQux")) :status))
      (rec "ts.buffer" (buf-text "lib.ts"))

      ;; 2. the preview hint names the word (world -> word, not a deleted "l")
      (editls-replace "world" "word" t)
      (rec "hint.ready" (bool (wait-until 10 (lambda () (flymake-start nil t)
                                               (cl-some (lambda (d) (string-match-p "preview p" (flymake-diagnostic-text d))) (flymake-diagnostics))))))
      (rec "hint.texts" (vconcat (mapcar #'flymake-diagnostic-text (flymake-diagnostics))))
      (rec "hint.buffer" (buf-text "lib.ts"))

      ;; 3. M-x editls-symbols jumps to the definition's line
      (editls-symbols "fooBarBaz")
      (rec "symbols.file" (file-name-nondirectory (or buffer-file-name "")))
      (rec "symbols.line" (line-number-at-pos))
      (rec "symbols.text" (buffer-substring-no-properties (line-beginning-position) (line-end-position)))

      ;; 4. editls-eglot-modes set with setq after loading: a mode added then is served
      (setq editls-eglot-modes (append editls-eglot-modes '(emacs-lisp-mode)))
      (find-file (path "x.el"))
      (rec "el.major-mode" (symbol-name major-mode))
      (condition-case err (call-interactively #'eglot) (error (rec "el.error" (error-message-string err))))
      (rec "el.connected" (bool (connected-p)))
      (rec "el.edit" (condition-case err
                         (editls--get (editls-execute "editls.edit" (list :file_path "x.el" :old_string "old" :new_string "new")) :status)
                       (error (error-message-string err))))
      (rec "el.buffer" (buf-text "x.el"))
      (rec "ok" t))
  (error (rec "ok" :json-false) (rec "error" (format "%S" top-err))))

(finish-driver)
