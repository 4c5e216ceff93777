;;; eglot-harness.el --- run a user's eglot set-up in batch Emacs and report diagnostics  -*- lexical-binding: t; -*-
;;
;; Used by test/editors.test.ts. Environment:
;;   SVC_INIT  the init file to load (the README's eglot configuration, unchanged)
;;   SVC_FILE  the manifest to open
;;   SVC_OUT   where to write what Emacs saw, as JSON
;; Emacs starts the way an interactive one does (packages activated, then the init file);
;; because batch Emacs has no command loop, the harness runs `post-command-hook' once after
;; opening the file, which is when `eglot-ensure' connects.

(require 'json)
(require 'package)
(package-activate-all)
(load (getenv "SVC_INIT") nil t)

(defvar svc-harness-result nil)

(defun svc-harness-write (result)
  (with-temp-file (getenv "SVC_OUT")
    (insert (json-encode result))))

(defun svc-harness-diagnostics ()
  (mapcar (lambda (diagnostic)
            (let ((beg (flymake-diagnostic-beg diagnostic))
                  (end (flymake-diagnostic-end diagnostic)))
              `((line . ,(line-number-at-pos beg))
                (column . ,(save-excursion (goto-char beg) (current-column)))
                (endLine . ,(line-number-at-pos end))
                (endColumn . ,(save-excursion (goto-char end) (current-column)))
                (type . ,(symbol-name (flymake-diagnostic-type diagnostic)))
                (text . ,(flymake-diagnostic-text diagnostic)))))
          (flymake-diagnostics)))

(condition-case err
    (progn
      (find-file (getenv "SVC_FILE"))
      (run-hooks 'post-command-hook)
      (let ((deadline (+ (float-time) 60)))
        (while (and (null (flymake-diagnostics)) (< (float-time) deadline))
          (accept-process-output nil 0.05)))
      (setq svc-harness-result
            `((mode . ,(symbol-name major-mode))
              (managed . ,(if (bound-and-true-p eglot--managed-mode) t :json-false))
              (server . ,(let ((server (eglot-current-server)))
                           (if server (mapconcat #'identity (process-command (jsonrpc--process server)) " ") "")))
              (diagnostics . ,(vconcat (svc-harness-diagnostics)))))
      (ignore-errors (eglot-shutdown (eglot-current-server))))
  (error (setq svc-harness-result `((error . ,(error-message-string err))))))

(svc-harness-write svc-harness-result)
(kill-emacs 0)
