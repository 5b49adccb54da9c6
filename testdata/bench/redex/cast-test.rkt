#lang racket/base
;; The worked examples of the specification (gradual.md §7), in the model: racket cast-test.rkt
(require rackunit "cast.rkt")
(current-check-handler raise) ; a failed check exits non-zero
(define (answer X e) (let-values ([(a n) (run X e)]) (observe a)))
(for ([X '(LD LUD ED EUD)])
  (check-equal? (answer X '(cast Int Dyn l2 (cast Dyn Int l1 4))) "4")
  (check-equal? (answer X '(cast Bool Dyn l2 (cast Dyn Int l1 4))) "blame l2")
  (check-equal? (answer X '((λ x Dyn x) (cast Dyn Int l1 1))) "dynamic"))
(for ([X '(LD LUD ED EUD)] [want '("blame l2" "blame l1" "blame l2" "blame l2")])
  (check-equal? (answer X '((cast (-> Dyn Int) Dyn l2 (cast Dyn (-> Bool Bool) l1 (λ x Bool x))) (cast Dyn Int l3 1))) want
                (format "~a" X)))
;; fib 10 = 55 (fully typed: no coercion), in 4 semantics.
(define (fib n) `(letrec fib (-> Int Int) (λ k Int (if (< k 2) k (+ (fib (- k 1)) (fib (- k 2))))) (fib ,n)))
(for ([X '(LD ED)]) (check-equal? (answer X (fib 10)) "55"))
;; A parameter named like its function (the Letrec erratum): 3 + 1.
(check-equal? (answer 'ED '(letrec f (-> Int Int) (λ f Int (+ f 1)) (f 3))) "4")
(display "ok\n")
