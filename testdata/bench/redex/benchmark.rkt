#lang racket/base
;; Redex's own generators on the Redex benchmark's seeded bugs (docs/redexbench.md):
;;
;;   racket benchmark.rkt FAMILY PREFIX SECONDS
;;
;; for FAMILY stlc+lists (PREFIX stlc) or poly-stlc (PREFIX poly-stlc), runs each bug's
;; three generators, the grammar's (adhoc-mod), the enumeration's (enum-mod) and
;; #:satisfying's (typed-mod), as redex-benchmark's models define them, each until the
;; model's own check (check-mod) fails on a term it generates, at most SECONDS, and
;; prints a line per generator:
;;
;;   FAMILY bugN GENERATOR SECONDS TERMS     (or "none" when SECONDS passed first)
;;
;; SECONDS the time to the first counterexample, in this process, the model loaded;
;; TERMS how many terms were generated before it. A generator that raises is counted
;; as generating nothing that time.
(require racket/format)

(define args (current-command-line-arguments))
(unless (= (vector-length args) 3)
  (eprintf "usage: racket benchmark.rkt FAMILY PREFIX SECONDS\n")
  (exit 2))
(define family (vector-ref args 0))
(define prefix (vector-ref args 1))
(define limit (string->number (vector-ref args 2)))
(define dir (build-path (collection-file-path "run-generator.rkt" "redex" "benchmark") 'up "models" family))

(for ([bug (in-range 1 10)])
  (define path (build-path dir (format "~a-~a.rkt" prefix bug)))
  (define check (dynamic-require `(submod ,path generators check-mod) 'check))
  (for ([gen '(adhoc-mod enum-mod typed-mod)])
    (define g ((dynamic-require `(submod ,path generators ,gen) 'get-generator)))
    (collect-garbage)
    (define start (current-inexact-milliseconds))
    (define found
      (let loop ([n 0])
        (cond
          [(> (- (current-inexact-milliseconds) start) (* 1000 limit)) #f]
          [else
           (define t (with-handlers ([exn:fail? (λ (e) #f)]) (g)))
           (if (and t (not (with-handlers ([exn:fail? (λ (e) #t)]) (check t))))
               n
               (loop (add1 n)))])))
    (define secs (/ (- (current-inexact-milliseconds) start) 1000.0))
    (printf "~a bug~a ~a ~a ~a\n" family bug gen (if found (~r secs #:precision 3) "none") (or found ""))
    (flush-output)))
