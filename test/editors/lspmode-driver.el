;;; lspmode-driver.el --- headless lsp-mode driver for test/editors/lspmode.test.ts  -*- lexical-binding: t; -*-
;; Emacs 28 + lsp-mode 8.0.0 (Debian) against dist/editls.js, registered by the shipped
;; client-examples/emacs/editls.el (an add-on client for every file).  lsp-mode 8 counts columns in
;; code points without saying so; editls answers clientInfo "emacs" with utf-32.  Runs each scenario
;; through lsp-mode's own machinery (applyEdit, lsp-execute-code-action, diagnostics, xref, undo)
;; and writes what buffers and disk hold as JSON to $OUT.  The test compares; this only records.
;; Run: WS=... SERVER=dist/editls.js OUT=out.json REPO=. emacs --batch -Q -l test/editors/lspmode-driver.el
(load (expand-file-name "test/editors/driver-common.el" (getenv "REPO")) nil t)

(driver-setup-lsp-mode)

(defun editls-diagnostics ()
  "editls's hints in the current buffer, as lsp-mode stores them."
  (cl-count-if (lambda (d) (equal (gethash "source" d) "editls")) (lsp--get-buffer-diagnostics)))

(defun choose-code-action (prefix)
  "M-x lsp-execute-code-action, picking the action whose title starts with PREFIX; returns all titles."
  (let ((titles '()))
    (cl-letf (((symbol-function 'completing-read)
               (lambda (_prompt collection &rest _)
                 (setq titles (all-completions "" collection))
                 (cl-find-if (lambda (s) (string-prefix-p prefix s)) titles))))
      (call-interactively #'lsp-execute-code-action))
    (vconcat titles)))

(defun start-lsp ()
  (lsp)
  (wait-until 20 (lambda () (cl-some (lambda (w) (eq (lsp--workspace-status w) 'initialized)) (lsp-workspaces)))))

(defun served-p (command)
  (let ((caps (lsp--workspace-server-capabilities (editls--lsp-mode-workspace))))
    (member command (append (gethash "commands" (gethash "executeCommandProvider" caps)) nil))))

(defun my-outcome (thunk)
  "Run THUNK (an editls-execute call); the result's status, replacements and notes, or the error."
  (condition-case err
      (let ((r (funcall thunk)))
        (list (cons "status" (editls--get r :status)) (cons "replacements" (editls--get r :replacements))
              (cons "notes" (editls--get r :notes))))
    (editls-error (list (cons "error" (nth 1 err)) (cons "message" (nth 2 err))))))

(defun my-attach () (start-lsp))
(defun my-flush () nil)
(defun my-titles ()
  (vconcat (mapcar (lambda (a) (gethash "title" a))
                   (lsp-request "textDocument/codeAction"
                                (list :textDocument (lsp--text-document-identifier)
                                      :range (list :start (list :line 0 :character 0) :end (list :line 0 :character 0))
                                      :context (list :diagnostics []))))))

(condition-case top-err
    (let ((default-directory my-ws))
      (find-file (path "a.txt"))
      (rec "major-mode" (symbol-name major-mode))
      (rec "connected" (bool (start-lsp)))
      (rec "lsp-mode-version" (progn (require 'lisp-mnt) (lm-version (locate-library "lsp-mode.el"))))
      (rec "auto-execute" (bool lsp-auto-execute-action))

      ;; 1. an edit in the open buffer on the line with é and 😀 (code-point columns)
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

      ;; 4. a preview changes nothing, lsp-mode holds its hint, its code action applies it
      (result-fields "s4" (lambda () (editls-execute "editls.proposeStrReplace" (list :path "a.txt" :replacements (vector (list :old "hello" :new "HELLO"))))))
      (rec "s4.buffer_after_preview" (buf-text "a.txt"))
      (rec "s4.disk_after_preview" (disk "a.txt"))
      (wait-until 5 (lambda () (> (editls-diagnostics) 0)))
      (rec "s4.diagnostics" (editls-diagnostics))
      (goto-char (point-min))
      (rec "s4.titles" (choose-code-action "editls: apply previewed edit"))
      (wait-until 10 (lambda () (string-prefix-p "HELLO" (buf-text "a.txt"))))
      (rec "s4.buffer" (buf-text "a.txt"))
      (wait-until 5 (lambda () (= (editls-diagnostics) 0)))
      (rec "s4.diagnostics_after" (editls-diagnostics))

      ;; 5. an error reaches the client with its kind (editls-execute reads the JSON-RPC error's data;
      ;;    plain lsp-request turns it into an `error' with the message)
      (result-fields "s5" (lambda () (editls-execute "editls.edit" (list :file_path "a.txt" :old_string "no such text" :new_string "x"))))
      (rec "s5.raw" (condition-case err
                        (progn (lsp-request "workspace/executeCommand"
                                            (list :command "editls.edit" :arguments (vector (list :file_path "a.txt" :old_string "no such text" :new_string "x"))))
                               nil)
                      (error (error-message-string err))))

      ;; 6. one undo reverts one command (several edits in one buffer)
      (undo-boundary)
      (rec "s6.before" (buf-text "a.txt"))
      (result-fields "s6" (lambda () (editls-execute "editls.edit" (list :file_path "a.txt" :old_string "e" :new_string "E" :replace_all t))))
      (rec "s6.after_command" (buf-text "a.txt"))
      (undo-boundary)
      (let ((last-command nil)) (undo))
      (rec "s6.after_one_undo" (buf-text "a.txt"))

      ;; 7. editls.searchAndReplace in a line range: M-x editls-replace on a region (line 2)
      (when (served-p "editls.searchAndReplace")
        (goto-char (point-min)) (forward-line 1) (push-mark (point) t t) (end-of-line)
        (editls-replace "line" "LINE")
        (deactivate-mark)
        (rec "s7.buffer" (buf-text "a.txt")))

      ;; 8. editls.replaceRange with UTF-16 columns on the emoji line (editls sends code points to lsp-mode)
      (result-fields "s8" (lambda () (editls-execute "editls.replaceRange" (list :filePath "a.txt" :startLine 3 :startColumn 6 :endLine 3 :endColumn 12 :expectedText "TARGET" :replacementText "target"))))
      (rec "s8.buffer" (buf-text "a.txt"))

      ;; 10. a no-input code action in another buffer of the project
      (find-file (path "ws.txt"))
      (start-lsp)
      (goto-char (point-min))
      (rec "s10.titles" (choose-code-action "editls: remove trailing whitespace in this file"))
      (wait-until 10 (lambda () (equal (buf-text "ws.txt") "trailing\nspaces\nnone\n")))
      (rec "s10.buffer" (buf-text "ws.txt"))
      (switch-to-buffer (buf "a.txt"))

      ;; 11. a search sees the unsaved buffer
      (when (served-p "editls.searchFiles")
        (goto-char (point-max)) (insert "unsaved marker line\n")
        (let ((r (editls-execute "editls.searchFiles" (list :path "." :regex "unsaved marker"))))
          (rec "s11.matches" (vconcat (mapcar (lambda (m) (list (cons "path" (gethash "path" m)) (cons "line" (gethash "line" m)) (cons "text" (gethash "text" m))))
                                              (gethash "matches" r)))))
        (rec "s11.disk" (disk "a.txt")))

      ;; 12. a workspace symbol, the way M-x xref-find-apropos asks lsp-mode
      (when (gethash "workspaceSymbolProvider" (lsp--workspace-server-capabilities (editls--lsp-mode-workspace)))
        (let ((raw (lsp-request "workspace/symbol" '(:query "fooBarBaz"))))
          (rec "s12.raw" (vconcat (mapcar (lambda (s) (let ((loc (gethash "location" s)))
                                                       (list (cons "name" (gethash "name" s))
                                                             (cons "file" (file-name-nondirectory (lsp--uri-to-path (gethash "uri" loc))))
                                                             (cons "line" (gethash "line" (gethash "start" (gethash "range" loc)))))))
                                          raw))))
        (let ((items (xref-backend-apropos 'xref-lsp "fooBarBaz")))
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
      (rec "s13.crlf_titles" (my-titles))
      (let ((refused (my-outcome (lambda () (editls-execute "editls.normalizeLineEndings" (list :path "crlf.txt"))))))
        (rec "s13.crlf_normalize" refused)
        (rec "s13.crlf_buffer" (buf-text "crlf.txt"))
        ;; The advice in the refusal, evaluated as M-: would: every line CRLF on disk.
        (let* ((msg (or (cdr (assoc "message" refused)) ""))
               (advice (and (string-match "run M-: \\(.*\\)\\'" msg) (match-string 1 msg))))
          (rec "s13.crlf_advice" (or advice :null))
          (when advice
            (with-current-buffer (find-buffer-visiting (path "crlf.txt")) (eval (car (read-from-string advice)))))
          (rec "s13.crlf_after_advice" (disk "crlf.txt"))))

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
