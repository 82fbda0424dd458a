(** What the kernel's fractions and term lists mean over Coq's rationals [Q] (QArith, no
    axioms), shared by the families whose kernel checks compute with polynomials as term lists
    [((num, den), exponents)] (Compind.v's term algebra: compositions, dependences, the
    coefficients and implicit equations of scalar ResNets).
    - [to_Q]: a fraction [(n, d)] as a rational, and the kernel's [qadd], [qmul], [qneg] read
      through it (positive denominators).
    - [poly_Q ts xs]: the polynomial with terms [ts] at the point [xs], with its own [qpow],
      [mono_Q] and Horner's rule [horner_Q].
    - The kernel's [term_mul], [terms_scale], [poly_mul_t], [add_term] and [normalize]
      evaluate to the products and sums they stand for ([poly_mul_t_Q], [normalize_Q]), under
      the invariant [terms_ok n]: every exponent vector has [n] entries and every denominator
      is positive. [all_zero_terms ts = true] makes [ts] the zero polynomial. *)
From Coq Require Import ZArith QArith List Bool Lia.
From NNCert Require Import Lists Arith Net Rank Compind.
Import ListNotations.
Local Open Scope Q_scope.

(** * Fractions *)

(** A fraction [(n, d)] as a rational. *)
Definition to_Q (a : Z * Z) : Q := inject_Z (fst a) / inject_Z (snd a).

Lemma inject_Z_nonzero (d : Z) : (0 < d)%Z -> ~ inject_Z d == 0.
Proof. intros H E. unfold Qeq in E. simpl in E. lia. Qed.

Lemma to_Q_add a b : (0 < snd a)%Z -> (0 < snd b)%Z -> to_Q (qadd a b) == to_Q a + to_Q b.
Proof.
  intros Ha Hb. unfold to_Q, qadd. simpl. rewrite inject_Z_plus, !inject_Z_mult.
  field. split; apply inject_Z_nonzero; assumption.
Qed.

Lemma to_Q_mul a b : (0 < snd a)%Z -> (0 < snd b)%Z -> to_Q (qmul a b) == to_Q a * to_Q b.
Proof.
  intros Ha Hb. unfold to_Q, qmul. simpl. rewrite !inject_Z_mult.
  field. split; apply inject_Z_nonzero; assumption.
Qed.

Lemma to_Q_neg a : (0 < snd a)%Z -> to_Q (qneg a) == - to_Q a.
Proof.
  intros Ha. unfold to_Q, qneg. simpl. rewrite inject_Z_opp.
  field. apply inject_Z_nonzero; assumption.
Qed.

Lemma to_Q_zero a : fst a = 0%Z -> to_Q a == 0.
Proof. intros H. unfold to_Q. rewrite H. unfold Qdiv. ring. Qed.

(** * Term lists *)

(** [x^e] over [Q], as [e] multiplications. *)
Fixpoint qpow (x : Q) (e : nat) : Q :=
  match e with
  | O => 1
  | S e' => x * qpow x e'
  end.

(** The monomial [prod_k xs[k]^es[k]] (to the shorter of [es] and [xs]). *)
Fixpoint mono_Q (es : list nat) (xs : list Q) : Q :=
  match es, xs with
  | e :: es', x :: xs' => qpow x e * mono_Q es' xs'
  | _, _ => 1
  end.

(** The polynomial with terms [ts] ([((num, den), exponents)]) at the point [xs]. *)
Fixpoint poly_Q (ts : list ((Z * Z) * list nat)) (xs : list Q) : Q :=
  match ts with
  | [] => 0
  | t :: ts' => to_Q (fst t) * mono_Q (snd t) xs + poly_Q ts' xs
  end.

(** [sigma(y) = sum_k s[k] y^k], by Horner's rule. *)
Fixpoint horner_Q (s : list Q) (y : Q) : Q :=
  match s with
  | [] => 0
  | c :: s' => c + y * horner_Q s' y
  end.

(** ** Invariants: positive denominators, exponent vectors of length [n]. *)

Definition term_ok (n : nat) (t : (Z * Z) * list nat) : Prop :=
  (0 < snd (fst t))%Z /\ length (snd t) = n.

Definition terms_ok (n : nat) (ts : list ((Z * Z) * list nat)) : Prop := Forall (term_ok n) ts.

Lemma terms_ok_app n a b : terms_ok n a -> terms_ok n b -> terms_ok n (a ++ b).
Proof. intros Ha Hb. apply Forall_app. split; assumption. Qed.

Lemma exps_add_length a b : length (exps_add a b) = Nat.min (length a) (length b).
Proof.
  revert b. induction a as [| x a IH]; intros [| y b]; simpl; try reflexivity.
  rewrite IH. reflexivity.
Qed.

Lemma term_mul_ok n s t : term_ok n s -> term_ok n t -> term_ok n (term_mul s t).
Proof.
  intros [Hs Ls] [Ht Lt]. unfold term_ok, term_mul. simpl. split; [lia|].
  rewrite exps_add_length, Ls, Lt. apply Nat.min_id.
Qed.

Lemma terms_scale_ok n t q : term_ok n t -> terms_ok n q -> terms_ok n (terms_scale t q).
Proof.
  intros Ht Hq. unfold terms_scale. induction Hq as [| u q Hu Hq IH]; simpl; constructor;
    [apply term_mul_ok|]; assumption.
Qed.

Lemma poly_mul_t_ok n p q : terms_ok n p -> terms_ok n q -> terms_ok n (poly_mul_t p q).
Proof.
  intros Hp Hq. induction Hp as [| t p Ht Hp IH]; simpl; [constructor|].
  apply terms_ok_app; [apply terms_scale_ok|]; assumption.
Qed.

Lemma add_term_ok n t acc : term_ok n t -> terms_ok n acc -> terms_ok n (add_term t acc).
Proof.
  intros Ht Hacc. induction Hacc as [| u acc Hu Hacc IH]; simpl; [constructor; [exact Ht | constructor]|].
  destruct (exps_eq (snd u) (snd t)); constructor; try assumption.
  destruct Hu as [Hu Lu]. destruct Ht as [Ht' _]. split; simpl; [lia | exact Lu].
Qed.

Lemma normalize_ok n ts : terms_ok n ts -> terms_ok n (normalize ts).
Proof.
  intros H. induction H as [| t ts Ht Hts IH]; simpl; [constructor|].
  apply add_term_ok; assumption.
Qed.

Lemma zero_exps_length n : length (zero_exps n) = n.
Proof. apply repeat_length. Qed.

Lemma const_term_ok n c : (0 < snd c)%Z -> term_ok n (const_term c n).
Proof. intros H. split; [exact H | apply zero_exps_length]. Qed.

(** ** Evaluation of the kernel's term algebra. *)

Lemma qpow_add x a b : qpow x (a + b) == qpow x a * qpow x b.
Proof.
  induction a as [| a IH]; simpl; [ring|]. rewrite IH. ring.
Qed.

(** Exponent vectors of the point's length add into a product of monomials. *)
Lemma mono_Q_add a b xs :
  length a = length xs -> length b = length xs ->
  mono_Q (exps_add a b) xs == mono_Q a xs * mono_Q b xs.
Proof.
  revert a b. induction xs as [| x xs IH]; intros [| e a] [| f b] La Lb; simpl in *;
    try discriminate; try ring.
  rewrite qpow_add, IH by lia. ring.
Qed.

Lemma poly_Q_app a b xs : poly_Q (a ++ b) xs == poly_Q a xs + poly_Q b xs.
Proof. induction a as [| t a IH]; simpl; [ring|]. rewrite IH. ring. Qed.

(** The value of one term. *)
Definition term_Q (t : (Z * Z) * list nat) (xs : list Q) : Q := to_Q (fst t) * mono_Q (snd t) xs.

Lemma terms_scale_Q n t q xs :
  term_ok n t -> terms_ok n q -> length xs = n ->
  poly_Q (terms_scale t q) xs == term_Q t xs * poly_Q q xs.
Proof.
  intros [Ht Lt] Hq Lx. unfold terms_scale, term_Q.
  induction Hq as [| u q [Hu Lu] Hq IH]; simpl; [ring|].
  rewrite IH. unfold term_mul. simpl. rewrite to_Q_mul by assumption.
  rewrite mono_Q_add by congruence. ring.
Qed.

Lemma poly_mul_t_Q n p q xs :
  terms_ok n p -> terms_ok n q -> length xs = n ->
  poly_Q (poly_mul_t p q) xs == poly_Q p xs * poly_Q q xs.
Proof.
  intros Hp Hq Lx. induction Hp as [| t p Ht Hp IH]; simpl; [ring|].
  rewrite poly_Q_app, IH, (terms_scale_Q n) by assumption. unfold term_Q. ring.
Qed.

Lemma exps_eq_true a b : exps_eq a b = true -> a = b.
Proof.
  revert b. induction a as [| x a IH]; intros [| y b] H; simpl in H; try discriminate;
    [reflexivity|].
  apply andb_prop in H as [Hx Hab]. apply Nat.eqb_eq in Hx. rewrite Hx, (IH b Hab).
  reflexivity.
Qed.

Lemma add_term_Q n t acc xs :
  term_ok n t -> terms_ok n acc ->
  poly_Q (add_term t acc) xs == term_Q t xs + poly_Q acc xs.
Proof.
  intros Ht Hacc. unfold term_Q. induction Hacc as [| u acc [Hu Lu] Hacc IH]; simpl; [ring|].
  destruct (exps_eq (snd u) (snd t)) eqn:E; simpl.
  - apply exps_eq_true in E. destruct Ht as [Ht _].
    rewrite to_Q_add by assumption. rewrite E. ring.
  - rewrite IH. ring.
Qed.

Lemma normalize_Q n ts xs : terms_ok n ts -> poly_Q (normalize ts) xs == poly_Q ts xs.
Proof.
  intros H. induction H as [| t ts Ht Hts IH]; simpl; [reflexivity|].
  rewrite (add_term_Q n) by (try apply normalize_ok; assumption). unfold term_Q.
  rewrite IH. reflexivity.
Qed.

Lemma mono_Q_zero n xs : mono_Q (zero_exps n) xs == 1.
Proof.
  unfold zero_exps. revert xs. induction n as [| n IH]; intros [| x xs]; simpl;
    try reflexivity.
  rewrite IH. ring.
Qed.

Lemma all_zero_terms_Q ts xs : all_zero_terms ts = true -> poly_Q ts xs == 0.
Proof.
  induction ts as [| t ts IH]; intros H; simpl; [reflexivity|].
  simpl in H. apply andb_prop in H as [Ht Hts]. apply Z.eqb_eq in Ht.
  rewrite IH, to_Q_zero by assumption. ring.
Qed.
