(** What the Prop. 2.1 and Prop. 3.3 facts of a composition-independence certificate mean
    (issue 24), over Coq's rationals [Q] (QArith, no axioms): the hypotheses of the cited
    propositions, with [Delta_2] and [Delta_3] written out here from the coefficients
    [a_0, ..., a_r] of sigma (math.md §1; Kohn-Marchetti-Massarenti-Mella, Prop. 2.1), not
    computed by the kernel. The kernel's checks [check_prop21] and [check_prop33]
    (Compind.v, on unnormalised fractions [(n, d)]) imply them: [prop21_meaning],
    [prop33_meaning], proved once here; a certificate derives its theorem by one [exact].
    The propositions' conclusions (linear independence of sigma(p), sigma(q)) stay cited. *)
From Coq Require Import ZArith QArith List Lia.
From NNCert Require Import Lists Arith Net Rank CheckerSound Compind CompindSound TermsMeaning.
Import ListNotations.
Local Open Scope Q_scope.

(** Coefficient [k] of the coefficient list [s] ([0] past the end). *)
Definition coef (s : list Q) (k : nat) : Q := nth k s 0%Q.

(** [r = deg sigma] for the coefficient list [s = a_0, ..., a_r]. *)
Definition top (s : list Q) : nat := (length s - 1)%nat.

(** [Delta_2 = 2 r a_r a_(r-2) - (r - 1) a_(r-1)^2]. *)
Definition Delta2 (s : list Q) : Q :=
  let r := top s in
  inject_Z (2 * Z.of_nat r)%Z * (coef s r * coef s (r - 2)) -
  inject_Z (Z.of_nat (r - 1)) * (coef s (r - 1) * coef s (r - 1)).

(** [Delta_3 = 3 r^2 a_r^2 a_(r-3) - 3 r (r - 2) a_r a_(r-1) a_(r-2) + (r-1)(r-2) a_(r-1)^3]. *)
Definition Delta3 (s : list Q) : Q :=
  let r := top s in
  inject_Z (3 * Z.of_nat r * Z.of_nat r)%Z * ((coef s r * coef s r) * coef s (r - 3)) -
  inject_Z (3 * Z.of_nat r * Z.of_nat (r - 2))%Z * ((coef s r * coef s (r - 1)) * coef s (r - 2)) +
  inject_Z (Z.of_nat (r - 1) * Z.of_nat (r - 2))%Z *
    ((coef s (r - 1) * coef s (r - 1)) * coef s (r - 1)).

(** The hypotheses of Prop. 2.1 for sigma with coefficients [s]: degree [r >= 3],
    [a_r <> 0], [Delta_2 = d2 <> 0] and [Delta_3 = d3 <> 0]. *)
Definition prop21_hypotheses (s : list Q) (d2 d3 : Q) : Prop :=
  (3 <= top s)%nat /\ ~ coef s (top s) == 0 /\
  Delta2 s == d2 /\ Delta3 s == d3 /\ ~ d2 == 0 /\ ~ d3 == 0.

(** The hypotheses of Prop. 3.3 (the origin-passing case): degree [r >= 2], [a_0 = 0] (so
    [sigma(0) = 0]), [a_r <> 0] and [a_(r-1) <> 0]. *)
Definition prop33_hypotheses (s : list Q) : Prop :=
  (2 <= top s)%nat /\ coef s 0 == 0 /\ ~ coef s (top s) == 0 /\ ~ coef s (top s - 1) == 0.

Lemma to_Q_int c : to_Q (qint c) == inject_Z c.
Proof. unfold to_Q, qint. simpl. field. Qed.

Lemma to_Q_eq a b : (0 < snd a)%Z -> (0 < snd b)%Z -> qeq a b = true -> to_Q a == to_Q b.
Proof.
  intros Ha Hb H. unfold qeq in H. apply Z.eqb_eq in H. unfold to_Q.
  apply Qeq_trans with (inject_Z (fst a * snd b)%Z / inject_Z (snd a * snd b)%Z).
  - rewrite !inject_Z_mult. field. split; apply inject_Z_nonzero; assumption.
  - rewrite H, !inject_Z_mult. field. split; apply inject_Z_nonzero; assumption.
Qed.

Lemma to_Q_nonzero a : (0 < snd a)%Z -> fst a <> 0%Z -> ~ to_Q a == 0.
Proof.
  intros Ha Hn E. unfold to_Q in E. apply Qeq_sym in E.
  assert (inject_Z (fst a) == 0).
  { setoid_replace (inject_Z (fst a)) with (to_Q a * inject_Z (snd a))
      by (unfold to_Q; field; apply inject_Z_nonzero; assumption).
    unfold to_Q. rewrite <- E. ring. }
  apply Hn. unfold Qeq in H. simpl in H. lia.
Qed.

Lemma coef_map sigma k : coef (map to_Q sigma) k == to_Q (nth_q sigma k).
Proof.
  unfold coef. revert k. induction sigma as [| x xs IH]; intros k; destruct k; simpl;
    try reflexivity; try apply IH; unfold to_Q; simpl; field.
Qed.

Lemma top_map sigma : top (map to_Q sigma) = nsub (length sigma) 1.
Proof. unfold top, nsub. rewrite map_length. reflexivity. Qed.

(** [RQ q a]: the fraction [a] has a positive denominator and is the rational [q]. *)
Definition RQ (q : Q) (a : Z * Z) : Prop := (0 < snd a)%Z /\ to_Q a == q.

Lemma RQ_add q q' a b : RQ q a -> RQ q' b -> RQ (q + q') (qadd a b).
Proof.
  intros [Ha Ea] [Hb Eb]. split; [simpl; lia|]. rewrite to_Q_add, Ea, Eb by assumption.
  reflexivity.
Qed.

Lemma RQ_mul q q' a b : RQ q a -> RQ q' b -> RQ (q * q') (qmul a b).
Proof.
  intros [Ha Ea] [Hb Eb]. split; [simpl; lia|]. rewrite to_Q_mul, Ea, Eb by assumption.
  reflexivity.
Qed.

Lemma RQ_sub q q' a b : RQ q a -> RQ q' b -> RQ (q - q') (qadd a (qneg b)).
Proof.
  intros Ra [Hb Eb]. unfold Qminus. apply RQ_add; [exact Ra|].
  split; [exact Hb|]. rewrite to_Q_neg, Eb by assumption. reflexivity.
Qed.

Lemma RQ_int c : RQ (inject_Z c) (qint c).
Proof. split; [simpl; lia | apply to_Q_int]. Qed.

Lemma RQ_coef sigma k : rats_pos sigma = true -> RQ (coef (map to_Q sigma) k) (nth_q sigma k).
Proof.
  intros H. split; [apply rats_pos_nth_q; exact H|]. rewrite coef_map. reflexivity.
Qed.

Lemma RQ_delta2 sigma : rats_pos sigma = true -> RQ (Delta2 (map to_Q sigma)) (delta2 sigma).
Proof.
  intros H. unfold delta2, Delta2, qmul3. rewrite top_map. unfold nsub.
  apply RQ_sub; apply RQ_mul; try apply RQ_int; apply RQ_mul; apply RQ_coef; exact H.
Qed.

Lemma RQ_delta3 sigma : rats_pos sigma = true -> RQ (Delta3 (map to_Q sigma)) (delta3 sigma).
Proof.
  intros H. unfold delta3, Delta3, qmul3. rewrite top_map. unfold nsub.
  apply RQ_add; [apply RQ_sub|]; apply RQ_mul; try apply RQ_int; apply RQ_mul;
    try (apply RQ_mul); apply RQ_coef; exact H.
Qed.

(** ** The theorems the certificates apply. *)

(** [check_prop21 sigma d2 d3 = true]: sigma (as rationals) satisfies the hypotheses of
    Prop. 2.1, with [Delta_2 = d2] and [Delta_3 = d3]. *)
Theorem prop21_meaning sigma d2 d3 :
  check_prop21 sigma d2 d3 = true ->
  prop21_hypotheses (map to_Q sigma) (to_Q d2) (to_Q d3).
Proof.
  intros Hc. pose proof Hc as Hs. unfold check_prop21 in Hs.
  apply andb_prop in Hs as [Hs _]. repeat (apply andb_prop in Hs as [Hs ?]).
  destruct (check_prop21_sound _ _ _ Hc)
    as (Hr & _ & P2 & P3 & Har & E2 & E3 & Q2 & Q3 & N2 & N3).
  assert (Hpos : rats_pos sigma = true).
  { unfold check_prop21 in Hc. repeat (apply andb_prop in Hc as [Hc ?]). exact Hc. }
  destruct (RQ_delta2 sigma Hpos) as [_ D2]. destruct (RQ_delta3 sigma Hpos) as [_ D3].
  unfold prop21_hypotheses. rewrite top_map. unfold nsub.
  split; [exact Hr|]. split.
  { rewrite coef_map. rewrite nth_q_nth. apply to_Q_nonzero; [|exact Har].
    rewrite <- nth_q_nth. apply rats_pos_nth_q. exact Hpos. }
  assert (Q2e : to_Q (delta2 sigma) == to_Q d2).
  { apply to_Q_eq; [exact Q2 | exact P2 | unfold qeq; apply Z.eqb_eq; exact E2]. }
  assert (Q3e : to_Q (delta3 sigma) == to_Q d3).
  { apply to_Q_eq; [exact Q3 | exact P3 | unfold qeq; apply Z.eqb_eq; exact E3]. }
  split. { rewrite <- D2. exact Q2e. }
  split. { rewrite <- D3. exact Q3e. }
  split.
  - intros Z2. apply N2. assert (to_Q (delta2 sigma) == 0) as Z2' by (rewrite Q2e; exact Z2).
    destruct (Z.eq_dec (fst (delta2 sigma)) 0) as [|Hn]; [assumption|].
    exfalso. exact (to_Q_nonzero _ Q2 Hn Z2').
  - intros Z3. apply N3. assert (to_Q (delta3 sigma) == 0) as Z3' by (rewrite Q3e; exact Z3).
    destruct (Z.eq_dec (fst (delta3 sigma)) 0) as [|Hn]; [assumption|].
    exfalso. exact (to_Q_nonzero _ Q3 Hn Z3').
Qed.

(** [check_prop33 sigma = true]: sigma (as rationals) satisfies the hypotheses of
    Prop. 3.3. *)
Theorem prop33_meaning sigma :
  check_prop33 sigma = true -> prop33_hypotheses (map to_Q sigma).
Proof.
  intros Hc. destruct (check_prop33_sound _ Hc) as (Hr & Hpos & A0 & Ar & Ar1 & _).
  assert (Hp : rats_pos sigma = true).
  { unfold check_prop33 in Hc. repeat (apply andb_prop in Hc as [Hc ?]). exact Hc. }
  unfold prop33_hypotheses. rewrite top_map. unfold nsub.
  split; [exact Hr|]. split.
  { rewrite coef_map, nth_q_nth. apply to_Q_zero. exact A0. }
  split; rewrite coef_map, nth_q_nth; apply to_Q_nonzero; try assumption;
    rewrite <- nth_q_nth; apply rats_pos_nth_q; exact Hp.
Qed.
