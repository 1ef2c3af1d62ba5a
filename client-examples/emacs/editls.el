;;; editls.el --- editls with Eglot or lsp-mode  -*- lexical-binding: t; -*-

;; Install editls (`npm install -g editls' puts `editls' on PATH), then load this file from your
;; init file, e.g. (load "/path/to/editls.el").  Without a global install set `editls-command' to
;; ("npx" "editls" "--stdio") in a project that has editls installed, or to
;; ("node" "/path/to/editls/dist/editls.js" "--stdio") for a checkout.  Tested headless in editls's
;; CI with Emacs 28.2 + Eglot 1.9 and lsp-mode 8.0.0 (Debian bookworm).
;;
;; Starting it: in a file's buffer, M-x eglot (or M-x lsp for lsp-mode).  To start it by itself for
;; every file it serves, add to your init file, after loading this file:
;;   (add-hook 'find-file-hook #'editls-eglot-ensure)   ; Eglot
;;   (add-hook 'find-file-hook #'editls-lsp-ensure)     ; or lsp-mode
;; (find-file-hook, not a mode hook: Emacs 28 opens .ts files in fundamental-mode, which runs none.)
;;
;; Eglot runs ONE server per buffer: editls serves the modes in `editls-eglot-modes' (default: text,
;; fundamental — what Emacs 28 opens files it has no mode for in, e.g. .ts — and the JavaScript and
;; TypeScript modes), instead of another server for those modes (typescript-language-server for
;; .js/.ts: take those modes out of the list to keep it).  Set it with setq or Customize, before or
;; after loading this file: it is read again whenever Eglot starts.
;; lsp-mode runs editls as an add-on next to the language's own server, in every buffer; it comes
;; back after `revert-buffer' (lsp-mode 8 drops it when the major mode is re-run).
;;
;; Commands:
;;   M-x editls-replace         replace in the current file (active region = those lines only;
;;                              C-u: a preview instead, applied with editls-apply-preview)
;;   M-x editls-apply-preview   apply the latest preview (or C-u: ask for its id)
;;   M-x editls-discard-preview
;;   M-x editls-replace-in-files replace in every file of the workspace: a preview shown as a diff
;;                              in *editls-replace* (unsaved buffers included); M-x editls-apply-preview
;;                              applies it (one undo per buffer, closed files written to disk); with
;;                              C-u it also asks for flags (r regex, i ignore case, p preserve case)
;;   M-x editls-undo            revert the last editls change to this file (C-u: the last editls
;;                              command, whatever file it changed)
;;   M-x editls-symbols         workspace symbols: pick one and jump to it.  (xref-find-apropos works
;;                              with Eglot; lsp-mode 8.0.0 lands one line early there — its
;;                              lsp--symbol-information-to-xref hands LSP's 0-based line to
;;                              xref-make-file-location, which counts from 1 — so use this.)
;; Previews also show as hint diagnostics with "editls: apply previewed edit ..." code actions:
;; M-x eglot-code-actions / eglot-code-action-rewrite, or lsp-execute-code-action.
;; From Lisp: (editls-execute "editls.edit" '(:file_path "a.txt" :old_string "a" :new_string "b"))
;; returns the result plist/hash table or signals `editls-error' with (KIND MESSAGE DATA CODE).

(require 'cl-lib)
(require 'subr-x)
(require 'url-util)

;; Eglot's and lsp-mode's variables and functions used below (either package may be absent).
(defvar eglot-server-programs)
(defvar eglot-confirm-server-initiated-edits)
(defvar eglot-confirm-server-edits)
(defvar lsp-auto-execute-action)
(defvar lsp--cur-workspace)
(defvar eglot--managed-mode)
(declare-function eglot-current-server "eglot")
(declare-function jsonrpc-request "jsonrpc")
(declare-function eglot-move-to-lsp-abiding-column "eglot")
(declare-function eglot-execute "eglot")
(declare-function eglot-execute-command "eglot")
(declare-function eglot--signal-textDocument/didChange "eglot")
(declare-function lsp-workspaces "lsp-mode")
(declare-function lsp--workspace-client "lsp-mode")
(declare-function lsp--client-server-id "lsp-mode")
(declare-function lsp-request-async "lsp-mode")
(declare-function lsp "lsp-mode")
(declare-function lsp-register-client "lsp-mode")
(declare-function make-lsp-client "lsp-mode")
(declare-function lsp-stdio-connection "lsp-mode")

(defgroup editls nil "editls, the editing language server." :group 'tools)

(defcustom editls-command '("editls" "--stdio")
  "How editls starts on this machine (read when a connection starts).
The default needs `npm install -g editls'.  Alternatives: (\"npx\" \"editls\" \"--stdio\") in a
project that has editls installed, (\"node\" \"/path/to/editls/dist/editls.js\" \"--stdio\")
for a checkout."
  :type '(repeat string))

(defcustom editls-initialization-options '(:summary "message")
  "editls settings sent in initializationOptions (see the README's Settings)."
  :type 'plist)

(defvar editls-eglot-modes)
(defvar editls--eglot-entry nil "The entry this file put in `eglot-server-programs'.")

(defun editls--eglot-contact (&optional _interactive)
  "editls's command line for Eglot, read when a connection starts."
  `(,@editls-command :initializationOptions ,editls-initialization-options))

(defun editls--eglot-register (&rest _)
  "Make Eglot's entry for editls cover `editls-eglot-modes' as they are now."
  (when (boundp 'eglot-server-programs)
    (unless (and editls--eglot-entry (member editls--eglot-entry eglot-server-programs)
                 (equal (car editls--eglot-entry) editls-eglot-modes))
      (setq eglot-server-programs (delq editls--eglot-entry eglot-server-programs))
      (setq editls--eglot-entry (cons (copy-sequence editls-eglot-modes) #'editls--eglot-contact))
      (push editls--eglot-entry eglot-server-programs))))

(defcustom editls-eglot-modes '(text-mode fundamental-mode js-mode js-ts-mode typescript-mode typescript-ts-mode tsx-ts-mode)
  "Major modes whose buffers Eglot connects to editls (and their derived modes).
`fundamental-mode' is where Emacs opens files it has no mode for (e.g. .ts in Emacs 28).  Eglot
runs one server per buffer: editls here instead of typescript-language-server for .js/.ts (remove
those modes to keep it).  Read again each time Eglot starts, so a plain setq after loading this
file works too."
  :type '(repeat symbol)
  :set (lambda (sym value) (set-default sym value) (editls--eglot-register)))

(defun editls-eglot-ensure ()
  "Start Eglot with editls in this buffer when its mode is one of `editls-eglot-modes'.
For `find-file-hook' (fundamental-mode runs no mode hook of its own)."
  (when (and buffer-file-name (apply #'derived-mode-p editls-eglot-modes))
    (require 'eglot)
    (eglot-ensure)))

(defun editls-lsp-ensure ()
  "Start lsp-mode in this file's buffer: editls runs as an add-on next to the language's own server.
For `find-file-hook'."
  (when buffer-file-name
    (require 'lsp-mode)
    (lsp-deferred)))

(define-error 'editls-error "editls")

(defvar editls-last-preview nil "The newest previewId a command returned.")

;;; Eglot

(with-eval-after-load 'eglot
  (editls--eglot-register)
  ;; `editls-eglot-modes' changed with setq after loading still counts: re-read before Eglot guesses.
  (advice-add 'eglot--guess-contact :before #'editls--eglot-register)
  ;; Eglot asks y-or-n-p before every server-initiated edit unless told not to.
  (setq eglot-confirm-server-initiated-edits nil)  ; Eglot <= 1.16
  (setq eglot-confirm-server-edits nil))           ; Eglot >= 1.17

;;; lsp-mode

(with-eval-after-load 'lsp-mode
  (lsp-register-client
   (make-lsp-client :new-connection (lsp-stdio-connection (lambda () editls-command))
                    :activation-fn (lambda (&rest _) t)   ; every file
                    :add-on? t                            ; next to the language's server
                    :initialization-options (lambda () editls-initialization-options)
                    :server-id 'editls))
  ;; lsp-mode runs a lone code action without asking; editls offers "remove trailing
  ;; whitespace" alone on many lines, so ask first.
  (setq lsp-auto-execute-action nil)
  ;; revert-buffer re-runs the major mode, which turns lsp-mode off; connect again afterwards.
  (add-hook 'before-revert-hook #'editls--remember-lsp)
  (add-hook 'after-revert-hook #'editls--reconnect-lsp))

(defvar-local editls--lsp-before-revert nil "Whether lsp-mode served editls here before a revert.")
(put 'editls--lsp-before-revert 'permanent-local t)

(defun editls--remember-lsp ()
  (setq editls--lsp-before-revert (and (bound-and-true-p lsp-mode) (editls--lsp-mode-workspace) t)))

(defun editls--reconnect-lsp ()
  (when (and editls--lsp-before-revert (not (bound-and-true-p lsp-mode)) (fboundp 'lsp))
    (setq editls--lsp-before-revert nil)
    (lsp)))

;;; Talking to the server

(defun editls--get (obj key)
  "KEY (a keyword) of OBJ, a plist (Eglot) or a hash table (lsp-mode)."
  (cond ((hash-table-p obj) (gethash (substring (symbol-name key) 1) obj))
        ((listp obj) (plist-get obj key))))

(defun editls--lsp-mode-workspace ()
  (and (fboundp 'lsp-workspaces)
       (cl-find-if (lambda (w) (eq (lsp--client-server-id (lsp--workspace-client w)) 'editls))
                   (lsp-workspaces))))

(defun editls--eglot-server ()
  (and (fboundp 'eglot-current-server) (eglot-current-server)))

(defun editls--signal (code message data)
  (signal 'editls-error (list (or (editls--get data :kind) code) message data code)))

(defun editls--request (method params)
  "Send METHOD with PARAMS to editls (Eglot or lsp-mode, only editls) and return the result.
Errors signal `editls-error'."
  (cond
   ((editls--eglot-server)
    (condition-case err
        (jsonrpc-request (editls--eglot-server) (intern (concat ":" method)) params)
      (jsonrpc-error
       (let ((e (cdr err)))
         (editls--signal (alist-get 'jsonrpc-error-code e) (alist-get 'jsonrpc-error-message e) (alist-get 'jsonrpc-error-data e))))))
   ((editls--lsp-mode-workspace)
    (let (done result error)
      (let ((lsp--cur-workspace (editls--lsp-mode-workspace)))
        (lsp-request-async method params
                           (lambda (r) (setq result r done t))
                           :error-handler (lambda (e) (setq error e done t))
                           :mode 'detached))
      (with-timeout (60 (user-error "editls: %s timed out" method))
        (while (not done) (accept-process-output nil 0.05)))
      (when error
        (editls--signal (editls--get error :code) (editls--get error :message) (editls--get error :data)))
      result))
   (t (user-error "editls: no Eglot or lsp-mode connection to editls in this buffer (M-x eglot or M-x lsp starts it)"))))

(defun editls-execute (command args)
  "Run editls COMMAND (a string) with ARGS (a plist) and return its result.
Failures signal `editls-error' with (KIND MESSAGE DATA CODE): KIND is data.kind
\(e.g. \"not_found\"), CODE the JSON-RPC error code."
  (let ((result
         (cond
          ((editls--eglot-server)
           ;; Eglot 1.9 does not send pending changes before executeCommand; newer ones do. Every
           ;; buffer of the server: workspace-wide commands read them all.
           (when (fboundp 'eglot--signal-textDocument/didChange)
             (dolist (b (if (fboundp 'eglot--managed-buffers) (eglot--managed-buffers (editls--eglot-server)) (list (current-buffer))))
               (when (buffer-live-p b) (with-current-buffer b (eglot--signal-textDocument/didChange)))))
           (condition-case err
               (if (fboundp 'eglot-execute)
                   (eglot-execute (editls--eglot-server) (list :command command :arguments (vector args)))
                 (eglot-execute-command (editls--eglot-server) (intern command) (vector args)))
             (jsonrpc-error
              (let ((e (cdr err)))
                (editls--signal (alist-get 'jsonrpc-error-code e) (alist-get 'jsonrpc-error-message e) (alist-get 'jsonrpc-error-data e))))))
          ((editls--lsp-mode-workspace)
           ;; Only editls gets the request (lsp-mode would ask every server that runs commands).
           (let (done result error)
             ;; what `with-lsp-workspace' expands to, without needing lsp-mode when compiling
             (let ((lsp--cur-workspace (editls--lsp-mode-workspace)))
               (lsp-request-async "workspace/executeCommand" (list :command command :arguments (vector args))
                                  (lambda (r) (setq result r done t))
                                  :error-handler (lambda (e) (setq error e done t))
                                  :mode 'detached))
             (with-timeout (60 (user-error "editls: %s timed out" command))
               (while (not done) (accept-process-output nil 0.05)))
             (when error
               (editls--signal (editls--get error :code) (editls--get error :message) (editls--get error :data)))
             result))
          (t (user-error "editls: no Eglot or lsp-mode connection to editls in this buffer (M-x eglot or M-x lsp starts it)")))))
    (when (editls--get result :previewId) (setq editls-last-preview (editls--get result :previewId)))
    result))

(defun editls--server-reports ()
  "Whether editls itself shows each result and failure (summary \"message\"): then this file does not."
  (equal (plist-get editls-initialization-options :summary) "message"))

(defun editls--report (command args)
  "Run COMMAND with ARGS for a user: show the summary, or the error and its kind (once)."
  (condition-case err
      (let ((result (editls-execute command args)))
        (unless (editls--server-reports) (message "%s" (or (editls--get result :message) "editls: done")))
        result)
    (editls-error (unless (editls--server-reports) (message "editls: %s (%s)" (nth 2 err) (nth 1 err))) nil)))

;;; Commands

(defun editls-replace (search replace &optional preview)
  "Replace SEARCH by REPLACE in the current file.
With an active region, only in the region's lines.  With PREVIEW (\\[universal-argument]) only
preview it: hint diagnostics, then `editls-apply-preview'."
  (interactive
   (let ((s (read-string "editls replace: ")))
     (list s (read-string (format "replace %s with: " s)) current-prefix-arg)))
  (let ((args (list :path (buffer-file-name) :search search :replace replace)))
    (when preview (setq args (append args (list :apply "preview"))))
    (when (use-region-p)
      (setq args (append args (list :start_line (line-number-at-pos (region-beginning))
                                    :end_line (line-number-at-pos (max (region-beginning) (1- (region-end))))))))
    (editls--report "editls.searchAndReplace" args)))

(defun editls-apply-preview (&optional id)
  "Apply preview ID (default: the latest)."
  (interactive (list (if current-prefix-arg (read-string "previewId: ") editls-last-preview)))
  (if id (editls--report "editls.applyPreview" (list :id id)) (user-error "editls: no pending preview")))

(defun editls-discard-preview (&optional id)
  "Discard preview ID (default: the latest)."
  (interactive (list (if current-prefix-arg (read-string "previewId: ") editls-last-preview)))
  (if id (editls--report "editls.discardPreview" (list :id id)) (user-error "editls: no pending preview")))

(defun editls-replace-in-files (search replace &rest options)
  "Preview replacing SEARCH by REPLACE in every file of the workspace.
OPTIONS is a plist of editls.replaceInFiles arguments (:use_regex t :ignore_case t
:preserve_case t :file_pattern \"*.el\" :max_files 5000 ...).  With \\[universal-argument] it
asks for flags: r regex, i ignore case, p preserve case, g a file glob, m the most files it may
change (default 1000; more is refused and nothing changes).  The diff is shown in
*editls-replace*; `editls-apply-preview' applies it."
  (interactive
   (let* ((s (read-string "editls replace in files: "))
          (r (read-string (format "replace %s everywhere with: " s)))
          (flags (if current-prefix-arg (read-string "flags (r regex, i ignore case, p preserve case, g glob, m max files): ") "")))
     (append (list s r)
             (when (string-match-p "r" flags) (list :use_regex t))
             (when (string-match-p "i" flags) (list :ignore_case t))
             (when (string-match-p "p" flags) (list :preserve_case t))
             (when (string-match-p "g" flags) (list :file_pattern (read-string "file glob (e.g. *.ts): ")))
             (when (string-match-p "m" flags)
               (let ((n (read-number "at most this many changed files: " 1000)))
                 (unless (and (integerp n) (>= n 1)) (user-error "editls: max files is a whole number, 1 or more"))
                 (list :max_files n))))))
  (let ((result (editls--report "editls.replaceInFiles" (append (list :search search :replace replace :apply "preview") options))))
    (when result
      (with-current-buffer (get-buffer-create "*editls-replace*")
        (let ((inhibit-read-only t))
          (erase-buffer)
          (insert (or (editls--get result :unifiedDiff) ""))
          (goto-char (point-min)))
        (diff-mode)
        (setq buffer-read-only t))
      (display-buffer "*editls-replace*")
      result)))

(defun editls-undo (&optional any-file)
  "Revert the last editls change to the current file.
With ANY-FILE (\\[universal-argument]), revert the last editls command, whatever file it changed."
  (interactive "P")
  (editls--report "editls.undo" (if any-file (make-hash-table) (list :path (buffer-file-name)))))

(defun editls--uri-to-path (uri)
  (let ((path (url-unhex-string (string-remove-prefix "file://" uri))))
    (decode-coding-string path 'utf-8)))

(defun editls-symbols (query)
  "Workspace symbols matching QUERY: pick one and jump to it (its line and column)."
  (interactive (list (read-string "editls symbols: ")))
  (let* ((eglot (editls--eglot-server))
         (found (append (editls--request "workspace/symbol" (list :query query)) nil))
         (choices (mapcar (lambda (sym)
                            (let* ((loc (editls--get sym :location))
                                   (start (editls--get (editls--get loc :range) :start))
                                   (file (editls--uri-to-path (editls--get loc :uri)))
                                   (container (editls--get sym :containerName)))
                              (list (format "%s%s  %s:%d" (editls--get sym :name)
                                            (if (and container (not (equal container ""))) (concat " (" container ")") "")
                                            (file-relative-name file) (1+ (editls--get start :line)))
                                    file (editls--get start :line) (editls--get start :character))))
                          found)))
    (if (null choices)
        (message "editls: no symbol matches %s" query)
      (let* ((pick (if (cdr choices)
                       (assoc (completing-read "editls symbol: " (mapcar #'car choices) nil t) choices)
                     (car choices))))
        (when pick
          (when (fboundp 'xref-push-marker-stack) (xref-push-marker-stack))
          (find-file (nth 1 pick))
          (goto-char (point-min))
          (forward-line (nth 2 pick))
          ;; Eglot counts columns in UTF-16 units; editls gives lsp-mode code points
          (if (and eglot (fboundp 'eglot-move-to-lsp-abiding-column))
              (eglot-move-to-lsp-abiding-column (nth 3 pick))
            (forward-char (min (nth 3 pick) (- (line-end-position) (point))))))))))

(provide 'editls)
;;; editls.el ends here
