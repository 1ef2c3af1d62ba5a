;;; emacs-agent-editor.el --- the user's editor in the IDE agent tests: Emacs 28 + Eglot 1.9  -*- lexical-binding: t; -*-
;; Batch Emacs with editls through the shipped client-examples/emacs/editls.el and Eglot, and
;; `global-auto-revert-mode' on (docs/agents.md).  The files in $CLEAN are opened as they are on
;; disk, those in $OPEN get an unsaved last line "UNSAVED <name>".  Everything the user is shown
;; (`message', which Eglot uses for window/showMessage) is appended to $WS/.messages; a review prompt
;; (Eglot asks window/showMessageRequest with `completing-read') is appended to $WS/.prompts and
;; answered with the text the test writes to $WS/.answer; $WS/.send (JSON) runs editls.sendToAgent.
;; Once $WS/.finish exists the buffers are
;; recorded in $WS/.result.json (after auto-revert had its chance to bring a.txt to the disk's text).
;; Run: WS=... SERVER=dist/editls.js REPO=. OPEN=b.txt CLEAN=a.txt emacs --batch -Q -l this-file
(load (expand-file-name "test/editors/driver-common.el" (getenv "REPO")) nil t)
(defvar editls-command (list "node" (getenv "SERVER") "--stdio"))
(load (expand-file-name "client-examples/emacs/editls.el" (getenv "REPO")) nil t)
(require 'eglot)
(require 'autorevert)

(defun agent-file (name) (expand-file-name name my-ws))
(defun agent-write (name text)
  "Writes NAME whole (a temporary file renamed into place): the test reads it as soon as it exists."
  (let ((coding-system-for-write 'utf-8-unix) (tmp (agent-file (concat name ".tmp"))))
    (write-region text nil tmp nil 'silent)
    (rename-file tmp (agent-file name) t)))
(defun agent-append (name line)
  (let ((coding-system-for-write 'utf-8-unix))
    (write-region (concat line "\n") nil (agent-file name) t 'silent)))
(defun agent-split (var) (split-string (or (getenv var) "") "," t))

(advice-add 'message :after
            (lambda (fmt &rest args)
              (when fmt (agent-append ".messages" (replace-regexp-in-string "\n" " " (apply #'format-message fmt args))))))

;; The review prompt: recorded, then answered by the test (as a user picks Apply or Discard).
(fset 'completing-read
      (lambda (prompt _collection &rest _)
        (agent-append ".prompts" (replace-regexp-in-string "\n" " " prompt))
        (let ((answer (agent-file ".answer")))
          (wait-until 300 (lambda () (file-exists-p answer)))
          (prog1 (string-trim (with-temp-buffer (insert-file-contents answer) (buffer-string)))
            (delete-file answer)))))

(defun agent-buffer-state (name)
  (let ((b (buf name)))
    (list (cons "text" (buf-text name)) (cons "modified" (bool (and b (buffer-modified-p b)))))))

(condition-case err
    (let ((default-directory my-ws)
          (first nil))
      ;; What docs/agents.md advises Emacs users: buffers follow their files when unchanged.  Batch
      ;; Emacs reports input pending on its stdin, which would stop every round of auto-revert, and
      ;; reads no file-notification events (they come as input events): it polls, every 0.5 s.
      (setq auto-revert-interval 0.5 auto-revert-stop-on-user-input nil auto-revert-use-notify nil)
      (global-auto-revert-mode 1)
      (dolist (name (append (agent-split "CLEAN") (agent-split "OPEN")))
        (find-file (agent-file name))
        (setq first (or first (current-buffer)))
        (unless (member name (agent-split "CLEAN"))
          (goto-char (point-max))
          (insert "UNSAVED " name "\n")))
      (switch-to-buffer first)
      (call-interactively #'eglot)
      (unless (wait-until 30 (lambda () (and (eglot-current-server) (eglot--managed-mode))))
        (error "editls did not attach"))
      ;; Every buffer of the project managed (their didOpen sent), the unsaved lines with them.
      (dolist (b (buffer-list))
        (with-current-buffer b
          (when (buffer-file-name) (eglot--maybe-activate-editing-mode) (eglot--signal-textDocument/didChange))))
      (agent-write ".editor-ready" "ok")
      ;; Until .finish: a .send file is the user running editls.sendToAgent (its code action).
      (wait-until 600 (lambda ()
                        (let ((send (agent-file ".send")))
                          (when (file-exists-p send)
                            ;; A send that fails (editls answers an error, as a user would see it) is
                            ;; shown, not the end of the session: the test sends again.
                            (condition-case send-err
                                (let ((args (json-read-file send)))
                                  (delete-file send)
                                  (with-current-buffer first
                                    (editls-execute "editls.sendToAgent"
                                                    (list :path (alist-get 'path args) :startLine (alist-get 'startLine args) :endLine (alist-get 'endLine args)))))
                              (error (message "editls.sendToAgent failed: %S" send-err)))))
                        (file-exists-p (agent-file ".finish"))))
      (let ((want (string-trim (with-temp-buffer (insert-file-contents (agent-file ".finish")) (buffer-string)))))
        ;; auto-revert brings an unchanged buffer to the disk's text (within its interval)
        (unless (string-empty-p want) (wait-until 20 (lambda () (equal (buf-text want) (disk want))))))
      (agent-write ".result.json"
                   (json-encode (list (cons "a.txt" (agent-buffer-state "a.txt"))
                                      (cons "b.txt" (agent-buffer-state "b.txt")))))
      (kill-emacs 0))
  (error (agent-write ".editor-ready" (format "error: %S" err))
         (kill-emacs 1)))
