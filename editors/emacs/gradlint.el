;;; gradlint.el --- gradlint's language server in Eglot  -*- lexical-binding: t; -*-

;; Load this from your init file (or paste the form).  Needs `gradlint' on PATH
;; (pip install gradlint-autograd) and Eglot (built into Emacs 29+; from ELPA on 28).
;; Then M-x eglot in a Python buffer, or (add-hook 'python-base-mode-hook #'eglot-ensure).
;;
;; Eglot runs ONE server per major mode: the first matching entry of `eglot-server-programs'
;; wins, so this replaces pyright/pylsp in Python buffers.  To keep both, start an LSP
;; multiplexer (one connection fanned out to several servers) that includes `gradlint lsp'.

;;; Code:

(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               '((python-mode python-ts-mode)
                 . ("gradlint" "lsp" :initializationOptions (:dynamicChecks t))))
  ;; Served for workspace/configuration, section "gradlint" (select, ignore, interpreter,
  ;; dynamicChecks, debounce); per project, set it in .dir-locals.el instead.
  (when (listp (default-value 'eglot-workspace-configuration)) ; it may also be a function
    (setq-default eglot-workspace-configuration
                  (plist-put (copy-sequence (default-value 'eglot-workspace-configuration))
                             :gradlint '(:dynamicChecks t)))))

(provide 'gradlint)
;;; gradlint.el ends here
