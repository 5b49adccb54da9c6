#lang racket/base
;; The Redex peers of the benchmark programs (interderive bench --peer redex).
;;
;;   racket peer.rkt PROGRAM N SEMANTICS
;;
;; runs PROGRAM (a program of ../, named NAME.EXT) at size N under SEMANTICS (ld, lud,
;; ed, eud) in each model that takes it, and prints a line per model:
;;
;;   MODEL CONTRACTIONS ANSWER SECONDS
;;
;; SECONDS is the time of the reduction alone (Racket's start and the model's loading
;; excluded), after a warm-up run at a small size.
(require racket/match racket/list (prefix-in cast: "cast.rkt") (prefix-in cbv: "cbv.rkt"))

;; The programs, as their .in files write them (testdata/bench), at size n.
(define programs
  (hash "fib-typed.gtlc"
        (λ (n) `(letrec fib (-> Int Int) (λ k Int (if (< k 2) k (+ (fib (- k 1)) (fib (- k 2))))) (fib ,n)))
        "sum.gtlc"
        (λ (n) `(letrec sum (-> Int Int) (λ n Int (if (= n 0) 0 (+ n (sum (- n 1))))) (sum ,n)))))

(define models
  (list (list "cast" cast:run cast:observe)
        (list "cbv" cbv:run cbv:observe)))

(define (time-run run observe X e)
  (collect-garbage)
  (define start (current-inexact-monotonic-milliseconds))
  (define-values (a steps) (run X e))
  (define ms (- (current-inexact-monotonic-milliseconds) start))
  (values (observe a) steps (/ ms 1000.0)))

(module+ main
  (match (current-command-line-arguments)
    [(vector name n-str sem)
     (define prog (hash-ref programs name (λ () (eprintf "peer.rkt: no Redex peer of ~a (known: ~a)\n" name (sort (hash-keys programs) string<?)) (exit 2))))
     (define n (string->number n-str))
     (unless (exact-nonnegative-integer? n) (eprintf "peer.rkt: ~s is not a size\n" n-str) (exit 2))
     (define X (string->symbol (string-upcase sem)))
     (unless (memq X '(LD LUD ED EUD)) (eprintf "peer.rkt: unknown semantics ~s\n" sem) (exit 2))
     (for ([m models])
       (match-define (list model run observe) m)
       (time-run run observe X (prog (min n 3))) ; warm-up
       (define-values (answer steps secs) (time-run run observe X (prog n)))
       (printf "~a ~a ~a ~a\n" model steps answer secs)
       (flush-output))]
    [_ (eprintf "usage: racket peer.rkt PROGRAM N SEMANTICS\n") (exit 2)]))
