#lang racket/base
;; A PLT Redex model of the cast calculus λ⟨·⟩ with coercions, layered as the
;; workbench's reduction semantics is (García-Pérez, Nogueira
;; & Sergey, PEPM 2014; docs/gradual.md; gradual/rules.go names the rules): an outer reduction
;; relation on terms whose rule StepCst takes one step of an inner reduction relation
;; on coercions, lazy (LD, LUD) or eager (ED, EUD), and the translations of type-based
;; casts into coercions, downcast (D) or upcast-downcast (UD).
;;
;; It is the peer the workbench's reduction semantics is compared with
;; (interderive bench --peer redex): the same rules, written as data in Redex and run
;; by Redex's own matcher. It is a model for timing and answers, written for clarity
;; as Redex users write models, not tuned.
(require redex/reduction-semantics racket/match racket/list)
(provide λC translate-casts outer-> run observe)

(define-language λC
  (T Int Bool Dyn (-> T T))
  (I Int Bool (-> T T))                 ; injectable: any type but Dyn (D); UD injects ground types only
  (op + - * = <)
  (uop inc dec zero?)
  (k integer boolean)
  (e k x (λ x T e) (e e) (op e e) (uop e) (if e e e)
     (let x T e e) (letrec x T (λ x T e) e)
     (cast T T l e)                     ; <T <= S>^l e: translated once, before running
     (coerce c e) (blame l))
  (x variable-not-otherwise-mentioned)
  (l variable-not-otherwise-mentioned)
  (c id (! T) (? T l) (-> c c) (seq c c) (fail l))
  ;; wrappers c̄, whose parts are normal forms ĉ (lazy, §3.2); λC-eager narrows them
  ;; to normal parts c̃ (§3.3)
  (cbar (side-condition (name w c) (lazy-wrapper? (term w))))
  (s k (λ x T e))
  (v s (coerce cbar s))
  (E hole (uop E) (op E e) (op v E) (if E e e) (E e) (v E) (coerce c E) (let x T E e))
  (C hole (seq C c) (seq c C) (-> C c) (-> c C))
  (X LD LUD ED EUD)
  #:binding-forms
  (λ x T e #:refers-to x)
  (let x T e_1 e_2 #:refers-to x)
  (letrec x T e_1 #:refers-to x e_2 #:refers-to x))

;; ---------------------------------------------------------------------------
;; Translations ⟨⟨T ⇐ S⟩⟩^l (§3.1), parametric in the blame strategy and arr.

(define (lazy? X) (memq X '(LD LUD)))
(define (ud? X) (memq X '(LUD EUD)))
(define (ground? T) (match T ['Int #t] ['Bool #t] ['(-> Dyn Dyn) #t] [_ #f]))

(define (mk-arr X c d)
  (cond [(lazy? X) `(-> ,c ,d)]
        [(match c [`(fail ,_) #t] [_ #f]) c]
        [(match d [`(fail ,_) #t] [_ #f]) d]
        [else `(-> ,c ,d)]))

(define (tr X T S l)
  (match* (T S)
    [('Dyn 'Dyn) 'id]
    [(B B) #:when (memq B '(Int Bool)) 'id]
    [(`(-> ,T1 ,T2) `(-> ,S1 ,S2)) (mk-arr X (tr X S1 T1 l) (tr X T2 S2 l))]
    [(_ 'Dyn) #:when (not (ud? X)) `(? ,T ,l)]
    [('Dyn _) #:when (not (ud? X)) `(! ,S)]
    [(_ 'Dyn) #:when (memq T '(Int Bool)) `(? ,T ,l)]
    [('Dyn _) #:when (memq S '(Int Bool)) `(! ,S)]
    [(`(-> ,T1 ,T2) 'Dyn) (seq* `(? (-> Dyn Dyn) ,l) (mk-arr X (tr X 'Dyn T1 l) (tr X T2 'Dyn l)))]
    [('Dyn `(-> ,S1 ,S2)) (seq* (mk-arr X (tr X S1 'Dyn l) (tr X 'Dyn S2 l)) '(! (-> Dyn Dyn)))]
    [(_ _) `(fail ,l)]))

;; seq* associates sequences to the right, the canonical association.
(define (seq* a b)
  (match a
    [`(seq ,a1 ,a2) (seq* a1 (seq* a2 b))]
    [_ `(seq ,a ,b)]))

(define (translate-casts X e)
  (match e
    [`(cast ,T ,S ,l ,e1) `(coerce ,(tr X T S l) ,(translate-casts X e1))]
    [(? list?) (map (λ (e1) (translate-casts X e1)) e)]
    [_ e]))

;; ---------------------------------------------------------------------------
;; The inner layer: one coercion step (§3.2 lazy, §3.3 eager), up to associativity:
;; every pair rule also applies to the head of a longer sequence.

(define (normal-part? c) ; c̃ of §3.3
  (match c
    ['id #t]
    [`(! ,_) #t]
    [`(? ,_ ,_) #t]
    [`(-> ,a ,b) (and (normal-part? a) (normal-part? b))]
    [`(seq (? ,_ ,_) (fail ,_)) #t]
    [`(seq (? ,_ ,_) (! ,_)) #t]
    [`(seq (? ,_ ,_) (-> ,a ,b)) (and (normal-part? a) (normal-part? b))]
    [`(seq (? ,_ ,_) (seq (-> ,a ,b) ,r)) (and (normal-part? a) (normal-part? b) (match r [`(! ,_) #t] [`(fail ,_) #t] [_ #f]))]
    [`(seq (-> ,a ,b) ,r) (and (normal-part? a) (normal-part? b) (match r [`(! ,_) #t] [`(fail ,_) #t] [_ #f]))]
    [_ #f]))
(define (normal-form? c) (or (normal-part? c) (match c [`(fail ,_) #t] [_ #f])))

(define (lazy-normal? c) ; ĉ of §3.2
  (match c
    [(or 'id `(fail ,_) `(! ,_) `(? ,_ ,_)) #t]
    [`(-> ,a ,b) (and (lazy-normal? a) (lazy-normal? b))]
    [`(seq (-> ,a ,b) (! ,_)) (and (lazy-normal? a) (lazy-normal? b))]
    [`(seq (? ,_ ,_) ,(or `(fail ,_) `(! ,_))) #t]
    [`(seq (? ,_ ,_) (-> ,a ,b)) (and (lazy-normal? a) (lazy-normal? b))]
    [`(seq (? ,_ ,_) (seq (-> ,a ,b) (! ,_))) (and (lazy-normal? a) (lazy-normal? b))]
    [_ #f]))

(define ((wrapper? normal?) c) ; c̄ ::= I! | n->n | (n->n);I!
  (match c
    [`(! ,_) #t]
    [`(-> ,a ,b) (and (normal? a) (normal? b))]
    [`(seq (-> ,a ,b) (! ,_)) (and (normal? a) (normal? b))]
    [_ #f]))
(define lazy-wrapper? (wrapper? lazy-normal?))
(define eager-wrapper? (wrapper? normal-part?))

(define (coercion-> X)
  (define lazy (lazy? X))
  (define (pair c1 c2) ; a contraction of c1 ; c2, or #f
    (match* (c1 c2)
      [('id _) (and (or lazy (normal-form? c2)) (list "IdL" c2))]
      [(_ 'id) (and (or lazy (normal-form? c1)) (list "IdR" c1))]
      [(`(! ,I1) `(? ,I2 ,l)) (list "InOut" (tr X I2 I1 l))]
      [(`(-> ,a1 ,a2) `(-> ,b1 ,b2))
       (and (or lazy (andmap normal-part? (list a1 a2 b1 b2)))
            (list "Arr" `(-> ,(seq* b1 a1) ,(seq* a2 b2))))]
      [(`(fail ,l) _) (and (or lazy (normal-form? c2)) (list "FailCo" c1))]
      [(`(! ,_) `(fail ,l)) (list "InFail" c2)]
      [(`(-> ,_ ,_) `(fail ,l)) (and lazy (list "ArrFail" c2))]
      [(_ _) #f]))
  (reduction-relation
   λC #:domain c
   (--> (in-hole C (seq c_1 c_2)) (in-hole C c_3)
        (where (any_name c_3) ,(pair (term c_1) (term c_2)))
        (computed-name (term any_name)))
   (--> (in-hole C (seq c_1 (seq c_2 c_4))) (in-hole C ,(seq* (term c_3) (term c_4)))
        (where (any_name c_3) ,(pair (term c_1) (term c_2)))
        (computed-name (term any_name)))
   (--> (in-hole C (-> (fail l) c)) (in-hole C (fail l))
        (side-condition (and (not lazy) (normal-form? (term c))))
        "FailL")
   (--> (in-hole C (-> c (fail l))) (in-hole C (fail l))
        (side-condition (and (not lazy) (normal-part? (term c))))
        "FailR")))

;; The leftmost-innermost step of a coercion, or #f for a normal one.
(define (step-coercion X c)
  (define steps (apply-reduction-relation/tag-with-names (inner X) c))
  (and (pair? steps) (car steps)))

(define inner-cache (make-hasheq))
(define (inner X) (hash-ref! inner-cache X (λ () (coercion-> X))))

;; ---------------------------------------------------------------------------
;; The outer layer (§4), on a program (X e) that carries its cast semantics.

(define (δ op a b)
  (match op ['+ (+ a b)] ['- (- a b)] ['* (* a b)] ['= (= a b)] ['< (< a b)]))
(define (δ1 op a)
  (match op ['inc (add1 a)] ['dec (sub1 a)] ['zero? (zero? a)]))

(define outer->
  (reduction-relation
   λC #:domain (X e)
   (--> (X (in-hole E ((λ x T e) v))) (X (in-hole E (substitute e x v))) "beta")
   (--> (X (in-hole E (op k_1 k_2))) (X (in-hole E ,(δ (term op) (term k_1) (term k_2)))) "delta")
   (--> (X (in-hole E (uop k))) (X (in-hole E ,(δ1 (term uop) (term k)))) "delta1")
   (--> (X (in-hole E (if #t e_1 e_2))) (X (in-hole E e_1)) "If")
   (--> (X (in-hole E (if #f e_1 e_2))) (X (in-hole E e_2)) "If2")
   (--> (X (in-hole E (let x T v e))) (X (in-hole E (substitute e x v))) "Let")
   (--> (X (in-hole E (letrec x_f T (λ x T_x e) e_b)))
        (X (in-hole E (substitute e_b x_f (λ x T_x (letrec x_f T (λ x T_x e) e)))))
        "Letrec")
   (--> (X (in-hole E (coerce id v))) (X (in-hole E v)) "IdCst")
   (--> (X (in-hole E (coerce c (coerce cbar s)))) (X (in-hole E (coerce ,(seq* (term cbar) (term c)) s)))
        (side-condition (not (equal? (term c) 'id)))
        "CmpCst")
   (--> (X (in-hole E ((coerce (name c_f cbar) s) v))) (X (in-hole E (coerce c_2 (s (coerce c_1 v)))))
        (where (-> c_1 c_2) c_f)
        "AppCst")
   (--> (X (in-hole E (coerce (fail l) s))) (X (blame l)) "FailCst")
   (--> (X (in-hole E (coerce (seq (-> c_1 c_2) (fail l)) s))) (X (blame l))
        (side-condition (not (step-coercion (term X) (term (seq (-> c_1 c_2) (fail l))))))
        "FailFC")
   (--> (X (in-hole E (coerce c s))) (X (in-hole E (coerce c_1 s)))
        (side-condition (not ((if (lazy? (term X)) lazy-wrapper? eager-wrapper?) (term c))))
        (side-condition (not (equal? (term c) 'id)))
        (where (any_rule c_1) ,(or (step-coercion (term X) (term c)) '(#f #f)))
        (side-condition (term any_rule))
        "StepCst")
   (--> (X (in-hole E (blame l))) (X (blame l))
        (side-condition (not (equal? (term E) (term hole))))
        "Blame")))

;; The eager semantics' values: wrappers of normal parts only, so that an arrow whose
;; part normalises to fail^l is not a value until FailL or FailR has fired.
(define-extended-language λC-eager λC
  (cbar (side-condition (name w c) (eager-wrapper? (term w)))))
(define outer-eager-> (extend-reduction-relation outer-> λC-eager))

;; observe prints an answer as Siek & Garcia do (§4, Observations).
(define (observe a)
  (match a
    [`(blame ,l) (format "blame ~a" l)]
    [(? exact-integer? n) (number->string n)]
    [#t "true"] [#f "false"]
    [`(λ . ,_) "function"]
    [`(coerce (-> ,_ ,_) ,_) "function"]
    [`(coerce ,_ ,_) "dynamic"]
    [_ (format "stuck: ~s" a)]))

;; run reduces e under X to an answer, one step at a time, and returns the answer and
;; the number of contractions (each StepCst one).
(define (run X e)
  (let loop ([p (term (,X ,(translate-casts X e)))] [n 0])
    (match (apply-reduction-relation (if (lazy? X) outer-> outer-eager->) p)
      ['() (values (cadr p) n)]
      [(list q) (loop q (add1 n))]
      [qs (error 'run "more than one decomposition of ~s: ~s" p qs)])))
