;;; eglot-driver.el --- headless Eglot driver for test/editors/eglot.test.ts  -*- lexical-binding: t; -*-
;; Emacs 28 + Eglot 1.9 (Debian) against dist/editls.js, configured by the shipped
;; client-examples/emacs/editls.el.  Runs each scenario through Eglot's own machinery (its
;; applyEdit handler, eglot-code-actions, flymake, xref, undo) and writes what buffers and disk
;; hold as JSON to $OUT.  The test compares; this script only records.
;; Run: WS=... SERVER=dist/editls.js OUT=out.json REPO=. emacs --batch -Q -l test/editors/eglot-driver.el
(load (expand-file-name "test/editors/driver-common.el" (getenv "REPO")) nil t)

(defvar editls-command (list "node" (getenv "SERVER") "--stdio"))
(load (expand-file-name "client-examples/emacs/editls.el" (getenv "REPO")) nil t)
(require 'eglot)
(transient-mark-mode 1)

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

(defun my-outcome (thunk)
  "Run THUNK (an editls-execute call); the result's status, replacements and notes, or the error."
  (condition-case err
      (let ((r (funcall thunk)))
        (list (cons "status" (editls--get r :status)) (cons "replacements" (editls--get r :replacements))
              (cons "notes" (editls--get r :notes))))
    (editls-error (list (cons "error" (nth 1 err)) (cons "message" (nth 2 err))))))

(defun my-attach () (wait-until 10 (lambda () (eglot--managed-mode))))
(defun my-flush () (eglot--signal-textDocument/didChange))
(defun my-titles ()
  (my-flush)
  (vconcat (mapcar (lambda (a) (plist-get a :title))
                   (jsonrpc-request (eglot-current-server) :textDocument/codeAction
                                    (list :textDocument (eglot--TextDocumentIdentifier)
                                          :range (list :start (list :line 0 :character 0) :end (list :line 0 :character 0))
                                          :context (list :diagnostics []))))))

(condition-case top-err
    (let ((default-directory my-ws))
      (find-file (path "a.txt"))
      (rec "major-mode" (symbol-name major-mode))
      (call-interactively #'eglot)
      (rec "connected" (bool (wait-until 20 (lambda () (and (eglot-current-server) (eglot--managed-mode))))))
      (rec "eglot-version" (progn (require 'lisp-mnt) (lm-version (locate-library "eglot.el"))))
      (flymake-start nil t)               ; what turning flymake-mode on does once Emacs is idle

      ;; 1. an edit in the open buffer on the line with é and 😀
      (result-fields "s1" (lambda () (editls-execute "editls.edit" (list :file_path "a.txt" :old_string "target" :new_string "TARGET"))))
      (rec "s1.buffer" (buf-text "a.txt"))
      (rec "s1.disk" (disk "a.txt"))
      (rec "s1.notified" (bool (wait-until 5 (lambda () (cl-some (lambda (m) (string-match-p "editls.edit: 1 replacement in a.txt; changed in the editor" m)) my-messages)))))

      ;; 2. a user edit (unsaved), then a command that only makes sense on the edited text
      (goto-char (point-min)) (forward-line 1) (end-of-line) (insert " typed")
      (result-fields "s2" (lambda () (editls-execute "editls.edit" (list :file_path "a.txt" :old_string "line typed" :new_string "line TYPED"))))
      (rec "s2.buffer" (buf-text "a.txt"))

      ;; 3. a closed file: written to disk, no buffer left behind
      (result-fields "s3" (lambda () (editls-execute "editls.edit" (list :file_path "b.txt" :old_string "one" :new_string "ONE"))))
      (rec "s3.disk" (disk "b.txt"))
      (rec "s3.buffer" (buf-text "b.txt"))

      ;; 4. a preview changes nothing, shows hint diagnostics, and is applied through its code action
      (result-fields "s4" (lambda () (editls-execute "editls.proposeStrReplace" (list :path "a.txt" :replacements (vector (list :old "hello" :new "HELLO"))))))
      (rec "s4.buffer_after_preview" (buf-text "a.txt"))
      (rec "s4.disk_after_preview" (disk "a.txt"))
      (wait-until 5 (lambda () (> (editls-diagnostics) 0)))
      (rec "s4.diagnostics" (editls-diagnostics))
      (goto-char (point-min))
      (rec "s4.titles" (choose-code-action "editls: apply previewed edit"))
      (rec "s4.buffer" (buf-text "a.txt"))
      (wait-until 5 (lambda () (= (editls-diagnostics) 0)))
      (rec "s4.diagnostics_after" (editls-diagnostics))

      ;; 5. an error reaches the client with its kind (Eglot signals jsonrpc-error with the data)
      (result-fields "s5" (lambda () (editls-execute "editls.edit" (list :file_path "a.txt" :old_string "no such text" :new_string "x"))))
      (rec "s5.raw" (condition-case err
                        (progn (eglot-execute-command (eglot-current-server) 'editls.edit
                                                      (vector (list :file_path "a.txt" :old_string "no such text" :new_string "x")))
                               nil)
                      (jsonrpc-error (list (cons "code" (alist-get 'jsonrpc-error-code (cdr err)))
                                           (cons "kind" (plist-get (alist-get 'jsonrpc-error-data (cdr err)) :kind))))))

      ;; 6. one undo reverts one command (several edits in one buffer)
      (undo-boundary)
      (rec "s6.before" (buf-text "a.txt"))
      (result-fields "s6" (lambda () (editls-execute "editls.edit" (list :file_path "a.txt" :old_string "e" :new_string "E" :replace_all t))))
      (rec "s6.after_command" (buf-text "a.txt"))
      (undo-boundary)
      (let ((last-command nil)) (undo))
      (rec "s6.after_one_undo" (buf-text "a.txt"))

      ;; 7. editls.searchAndReplace in a line range: M-x editls-replace on a region (line 2)
      (when (member "editls.searchAndReplace" (append (plist-get (plist-get (eglot--capabilities (eglot-current-server)) :executeCommandProvider) :commands) nil))
        (goto-char (point-min)) (forward-line 1) (push-mark (point) t t) (end-of-line)
        (editls-replace "line" "LINE")
        (deactivate-mark)
        (rec "s7.buffer" (buf-text "a.txt")))

      ;; 8. editls.replaceRange with UTF-16 columns on the emoji line
      (result-fields "s8" (lambda () (editls-execute "editls.replaceRange" (list :filePath "a.txt" :startLine 3 :startColumn 6 :endLine 3 :endColumn 12 :expectedText "TARGET" :replacementText "target"))))
      (rec "s8.buffer" (buf-text "a.txt"))

      ;; 10. a no-input code action in another buffer of the project
      (find-file (path "ws.txt"))
      (wait-until 10 (lambda () (eglot--managed-mode)))
      (goto-char (point-min))
      (rec "s10.titles" (choose-code-action "editls: remove trailing whitespace in this file"))
      (rec "s10.buffer" (buf-text "ws.txt"))
      (switch-to-buffer (buf "a.txt"))

      ;; 11. a search sees the unsaved buffer
      (when (member "editls.searchFiles" (append (plist-get (plist-get (eglot--capabilities (eglot-current-server)) :executeCommandProvider) :commands) nil))
        (goto-char (point-max)) (insert "unsaved marker line\n")
        (let ((r (editls-execute "editls.searchFiles" (list :path "." :regex "unsaved marker"))))
          (rec "s11.matches" (vconcat (mapcar (lambda (m) (list (cons "path" (plist-get m :path)) (cons "line" (plist-get m :line)) (cons "text" (plist-get m :text))))
                                              (plist-get r :matches)))))
        (rec "s11.disk" (disk "a.txt")))

      ;; 12. a workspace symbol, the way M-x xref-find-apropos asks Eglot
      (when (plist-get (eglot--capabilities (eglot-current-server)) :workspaceSymbolProvider)
        (let ((items (xref-backend-apropos 'eglot "fooBarBaz")))
          (rec "s12.items" (vconcat (mapcar (lambda (x) (let ((loc (xref-item-location x)))
                                                         (list (cons "file" (file-name-nondirectory (xref-location-group loc)))
                                                               (cons "line" (xref-location-line loc)))))
                                            items)))))

      ;; 13. mixed line endings: Emacs opens them -unix, the CRs stay in the buffer as ^M
      (find-file (path "mixed.txt"))
      (my-attach)
      (rec "s13.coding" (symbol-name buffer-file-coding-system))
      (rec "s13.titles_before" (my-titles))
      (rec "s13.normalize" (my-outcome (lambda () (editls-execute "editls.normalizeLineEndings" (list :path "mixed.txt")))))
      (rec "s13.buffer_normalized" (buf-text "mixed.txt"))
      (rec "s13.edit" (my-outcome (lambda () (editls-execute "editls.edit" (list :file_path "mixed.txt" :old_string "three" :new_string "THREE")))))
      (rec "s13.buffer" (buf-text "mixed.txt"))
      (my-flush)
      (save-buffer)
      (rec "s13.disk" (disk "mixed.txt"))
      (accept-process-output nil 0.3)
      (rec "s13.titles_after_save" (my-titles))
      (find-file (path "crlf.txt"))
      (my-attach)
      (rec "s13.crlf_normalize" (my-outcome (lambda () (editls-execute "editls.normalizeLineEndings" (list :path "crlf.txt")))))
      (rec "s13.crlf_buffer" (buf-text "crlf.txt"))

      ;; 14. a 5-match searchAndReplace in an open buffer, 5 times (q -> Y, Y -> q, ...)
      (find-file (path "five.txt"))
      (my-attach)
      (let ((wrong 0) (bad 0) (answers '()) (notes '())
            (before "one q\ntwo q\nthree q\nfour q\nfive q\nend\n")
            (after "one Y\ntwo Y\nthree Y\nfour Y\nfive Y\nend\n"))
        (dotimes (i 5)
          (let* ((forward (= (% i 2) 0))
                 (r (my-outcome (lambda () (editls-execute "editls.searchAndReplace"
                                                           (list :path "five.txt" :search (if forward "q" "Y") :replace (if forward "Y" "q")))))))
            (if (and (equal (cdr (assoc "status" r)) "applied") (equal (cdr (assoc "replacements" r)) 5))
                (when (cdr (assoc "notes" r)) (push (cdr (assoc "notes" r)) notes))
              (setq wrong (1+ wrong))
              (push (or (cdr (assoc "message" r)) "?") answers))
            (unless (equal (buf-text "five.txt") (if forward after before)) (setq bad (1+ bad)))))
        (rec "s14.runs" 5)
        (rec "s14.wrong" wrong)
        (rec "s14.bad_buffer" bad)
        (rec "s14.answers" (vconcat answers))
        (rec "s14.notes" (vconcat notes)))
      (rec "ok" t))
  (error (rec "ok" :json-false) (rec "error" (format "%S" top-err))))

(finish-driver)
