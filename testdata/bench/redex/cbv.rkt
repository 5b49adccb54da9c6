#lang racket/base
;; A PLT Redex model of the typed call-by-value fragment of the cast calculus: integers,
;; booleans, λ, application, the primitives, if, let and letrec, with no cast and no
;; coercion (gradual.md §4's rules beta, delta, If, Let, Letrec). On a fully typed
;; program it takes the same contractions as the cast model (cast.rkt) and the
;; workbench's stages, with a smaller grammar for Redex to match against.
(require redex/reduction-semantics racket/match)
(provide λV run observe)

(define-language λV
  (T Int Bool (-> T T))
  (op + - * = <)
  (uop inc dec zero?)
  (k integer boolean)
  (e k x (λ x T e) (e e) (op e e) (uop e) (if e e e) (let x T e e) (letrec x T (λ x T e) e))
  (x variable-not-otherwise-mentioned)
  (v k (λ x T e))
  (E hole (uop E) (op E e) (op v E) (if E e e) (E e) (v E) (let x T E e))
  #:binding-forms
  (λ x T e #:refers-to x)
  (let x T e_1 e_2 #:refers-to x)
  (letrec x T e_1 #:refers-to x e_2 #:refers-to x))

(define (δ op a b)
  (match op ['+ (+ a b)] ['- (- a b)] ['* (* a b)] ['= (= a b)] ['< (< a b)]))
(define (δ1 op a)
  (match op ['inc (add1 a)] ['dec (sub1 a)] ['zero? (zero? a)]))

(define ->v
  (reduction-relation
   λV #:domain e
   (--> (in-hole E ((λ x T e) v)) (in-hole E (substitute e x v)) "beta")
   (--> (in-hole E (op k_1 k_2)) (in-hole E ,(δ (term op) (term k_1) (term k_2))) "delta")
   (--> (in-hole E (uop k)) (in-hole E ,(δ1 (term uop) (term k))) "delta1")
   (--> (in-hole E (if #t e_1 e_2)) (in-hole E e_1) "If")
   (--> (in-hole E (if #f e_1 e_2)) (in-hole E e_2) "If2")
   (--> (in-hole E (let x T v e)) (in-hole E (substitute e x v)) "Let")
   (--> (in-hole E (letrec x_f T (λ x T_x e) e_b))
        (in-hole E (substitute e_b x_f (λ x T_x (letrec x_f T (λ x T_x e) e))))
        "Letrec")))

(define (observe a)
  (match a
    [(? exact-integer? n) (number->string n)]
    [#t "true"] [#f "false"]
    [`(λ . ,_) "function"]
    [_ (format "stuck: ~s" a)]))

;; run reduces e to an answer, one step at a time, and returns it with the number of
;; contractions. The semantics X is ignored: without casts, the four coincide.
(define (run X e)
  (let loop ([e e] [n 0])
    (match (apply-reduction-relation ->v e)
      ['() (values e n)]
      [(list e1) (loop e1 (add1 n))]
      [es (error 'run "more than one decomposition of ~s: ~s" e es)])))
