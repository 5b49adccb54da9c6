#lang racket/base
;; A Redex model's relation run on one term, timed (interderive bench --peer redex
;; --model MODEL.rkt).
;;
;;   racket model.rkt MODEL.rkt RELATION TERM
;;
;; instantiates the model (its module-level tests run, and print, as they do when
;; Racket loads it), reduces TERM by RELATION one step at a time to its normal form
;; (the relation must give one reduct a step: a deterministic one), then times the
;; same reduction, repeated until half a second has passed, and prints
;;
;;   redex CONTRACTIONS ANSWER SECONDS
;;
;; With a fourth argument rounds, it reduces TERM once, prints
;;
;;   redex CONTRACTIONS ANSWER 0
;;
;; and then, for each line of standard input, a number of milliseconds M, times the
;; same reduction repeated until M milliseconds have passed and prints "time SECONDS":
;; the caller times its own runs between two rounds (bench --peer redex --model
;; interleaves them, so that a slow phase of the machine weighs on both sides).
;;
;; With - for TERM, it reduces each term of standard input in turn, untimed, and
;; prints a line for each, "redex CONTRACTIONS ANSWER 0".
;;
;; With a fourth argument all, it prints the normal forms of the relation explored
;; whole (apply-reduction-relation*), "normal TERM" a line: a non-deterministic
;; relation's.
;;
;; With a fourth argument N, it takes at most N steps, untimed, and prints each term
;; reached, then the last (a program that does not end, compared step for step):
;;
;;   step 1 TERM
;;   ...
;;   redex STEPS TERM 0
;;
;; ANSWER written as Racket writes it, SECONDS the mean time of one reduction (with
;; Redex's cache of matches off, so that each repetition matches as the first did).
(require racket/match racket/string redex/reduction-semantics)

(define (reduce rel t [most #f])
  (let loop ([t t] [n 0])
    (match (if (and most (= n most)) '() (apply-reduction-relation rel t))
      ['() (values t n)]
      [(list next) (when most (printf "step ~a ~s\n" (add1 n) next)) (loop next (add1 n))]
      [many (eprintf "model.rkt: ~a reducts of ~s: the relation is not deterministic\n" (length many) t) (exit 1)])))

;; The model is loaded without Redex's GUI (which needs a display): its (require
;; redex) is redex/reduction-semantics, and its calls of traces, stepper and render
;; functions are left out.
(define gui-forms '(traces traces/ps stepper reduction-steps-cutoff render-language render-reduction-relation render-metafunction render-judgment-form))

(define (headless d)
  (match d
    [(list 'require specs ...)
     (if (memq 'redex specs)
         ;; Redex's GUI functions a definition still names (letrec.rkt's run calls
         ;; traces) do nothing.
         `(begin (require ,@(map (λ (s) (if (eq? s 'redex) 'redex/reduction-semantics s)) specs))
                 ,@(for/list ([g gui-forms]) `(define (,g . _) (void))))
         d)]
    [(list '#%module-begin forms ...) (cons '#%module-begin (filter-map* forms))]
    [_ d]))

(define (filter-map* forms)
  (for/list ([f forms] #:unless (and (pair? f) (memq (car f) gui-forms)))
    (headless f)))

(define (load-model path)
  (define form
    (parameterize ([read-accept-reader #t] [read-accept-lang #t])
      (call-with-input-file path (λ (in) (port-count-lines! in) (syntax->datum (read-syntax path in))))))
  (match form
    [(list 'module _ lang body ...)
     (define ns (make-base-namespace))
     ;; The model's Redex is this script's: one instance of its structures.
     (namespace-attach-module (variable-reference->namespace (#%variable-reference)) 'redex/reduction-semantics ns)
     ;; The model sees no command-line arguments of this script's (arithmetic.rkt
     ;; parses its own).
     (parameterize ([current-namespace ns]
                    [current-command-line-arguments (vector)]
                    [current-load-relative-directory (let-values ([(dir _n _d) (split-path path)]) dir)])
       (eval `(module model ,lang ,@(filter-map* body)))
       (dynamic-require ''model #f)
       (module->namespace ''model))]
    [_ (eprintf "model.rkt: ~a is not a module\n" path) (exit 2)]))

;; time-reductions is the mean time in seconds of the reductions of t by rel repeated
;; until ms milliseconds have passed (once at least), after a collection.
(define (time-reductions rel t ms)
  (collect-garbage)
  (define start (current-inexact-monotonic-milliseconds))
  (define reps
    (let loop ([reps 0])
      (if (and (> reps 0) (> (- (current-inexact-monotonic-milliseconds) start) ms))
          reps
          (begin (reduce rel t) (loop (add1 reps))))))
  (/ (- (current-inexact-monotonic-milliseconds) start) reps 1000.0))

(module+ main
  (match (current-command-line-arguments)
    [(vector file rel-name term-str "rounds")
     ;; Reduced once, then timed a round per line of standard input.
     (define ns (load-model (path->complete-path (string->path file))))
     (define rel (eval (string->symbol rel-name) ns))
     (define t (read (open-input-string term-str)))
     (caching-enabled? #f) ; as below: every reduction matches afresh
     (define-values (answer steps) (reduce rel t))
     (printf "redex ~a ~s 0\n" steps answer)
     (flush-output)
     (for ([line (in-lines)])
       (define ms (string->number (string-trim line)))
       (unless (and ms (> ms 0))
         (eprintf "model.rkt: ~s is no number of milliseconds\n" line)
         (exit 2))
       (printf "time ~a\n" (time-reductions rel t ms))
       (flush-output))]
    [(vector file rel-name "-")
     ;; Each term of standard input reduced, untimed: one model load for many terms.
     (define ns (load-model (path->complete-path (string->path file))))
     (define rel (eval (string->symbol rel-name) ns))
     (for ([t (in-port read)])
       (define-values (answer steps) (reduce rel t))
       (printf "redex ~a ~s 0\n" steps answer))]
    [(vector file rel-name term-str)
     (define path (path->complete-path (string->path file)))
     (define ns (load-model path))
     (define rel (eval (string->symbol rel-name) ns))
     (define t (read (open-input-string term-str)))
     ;; Redex caches its pattern matches across reductions: repeating one would time
     ;; the cache. Every reduction here matches afresh, as a first run does.
     (caching-enabled? #f)
     (define-values (answer steps) (reduce rel t))
     (printf "redex ~a ~s ~a\n" steps answer (time-reductions rel t 500.0))]
    [(vector file rel-name term-str "all")
     ;; A relation explored whole: its normal forms, one a line.
     (define ns (load-model (path->complete-path (string->path file))))
     (for ([nf (apply-reduction-relation* (eval (string->symbol rel-name) ns) (read (open-input-string term-str)))])
       (printf "normal ~s\n" nf))]
    [(vector file rel-name term-str steps-str)
     (define ns (load-model (path->complete-path (string->path file))))
     (define-values (reached steps)
       (reduce (eval (string->symbol rel-name) ns) (read (open-input-string term-str)) (string->number steps-str)))
     (printf "redex ~a ~s 0\n" steps reached)]
    [_ (eprintf "usage: racket model.rkt MODEL.rkt RELATION TERM [STEPS | all | rounds], or - for TERM\n") (exit 2)]))
