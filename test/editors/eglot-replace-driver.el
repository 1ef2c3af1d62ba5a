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

(defun result-fields (prefix thunk)
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

(defun editls-diagnostics ()
  "editls's hints that flymake shows in the current buffer."
  (cl-count-if (lambda (d) (string-match-p "preview p[0-9]+ (editls" (flymake-diagnostic-text d))) (flymake-diagnostics)))

(defun choose-code-action (prefix)
  "M-x eglot-code-actions, picking the action whose title starts with PREFIX; returns all titles."
  (let ((titles '())
        (last-nonmenu-event ?a))          ; not a mouse event: Eglot uses completing-read
    (cl-letf (((symbol-function 'completing-read)
               (lambda (_prompt collection &rest _)
                 (setq titles (all-completions "" collection))
                 (cl-find-if (lambda (s) (string-prefix-p prefix s)) titles))))
      (call-interactively #'eglot-code-actions))
    (vconcat titles)))

(condition-case top-err
    (let ((default-directory my-ws))
      (find-file (path "a.txt"))
      (call-interactively #'eglot)
      (rec "connected" (bool (wait-until 20 (lambda () (and (eglot-current-server) (eglot--managed-mode))))))
      ;; an unsaved change the replace must see, in its own undo step
      (goto-char (point-min)) (forward-line 1) (end-of-line) (insert " world")
      (undo-boundary)
      (rec "a.before" (buf-text "a.txt"))
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
