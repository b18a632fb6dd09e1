;;; emacs_contact.el --- print what editors/emacs/gradlint.el gives Eglot, as JSON  -*- lexical-binding: t; -*-
;; emacs --batch -l emacs_contact.el SNIPPET
(require 'eglot)
(require 'json)
(load (car command-line-args-left) nil t)
(let* ((contact (cdr (assoc '(python-mode python-ts-mode) eglot-server-programs)))
       (rest (seq-drop-while #'stringp contact)))
  (princ (json-encode
          `((command . ,(vconcat (seq-take-while #'stringp contact)))
            (initializationOptions . ,(plist-get rest :initializationOptions))
            (workspaceConfiguration . ,eglot-workspace-configuration)))))
(setq command-line-args-left nil)
