(** Soundness lemmas of the composition-independence checkers of Compind.v: what [= true]
    means as a proposition. Compiled with the library, so every bundle's coqc run re-checks
    these proofs. *)
From Coq Require Import ZArith List Bool Uint63 Lia.
From NNCert Require Import Lists Arith Net RankCore Rank CheckerSound Compind.
Import ListNotations.
Open Scope Z_scope.

(** Splits every boolean conjunction hypothesis [a && b = true] into [a = true], [b = true]. *)
Local Ltac split_andb :=
  repeat match goal with
         | H : (_ && _) = true |- _ => apply andb_prop in H; destruct H
         end.

(** [nth_q] is the standard [nth] with default [(0, 1)]. *)
Lemma nth_q_nth : forall xs j, nth_q xs j = nth j xs (0, 1).
Proof.
  induction xs as [| x xs IH]; intros j; destruct j as [| j]; simpl; auto.
Qed.

(** [rats_pos rs = true] means every denominator in [rs] is positive. *)
Lemma rats_pos_sound : forall rs q, rats_pos rs = true -> In q rs -> 0 < snd q.
Proof.
  induction rs as [| r rs IH]; intros q H Hq; [destruct Hq|].
  simpl in H. apply andb_prop in H as [Hr Hrs]. apply Z.ltb_lt in Hr.
  destruct Hq as [<- | Hq]; [exact Hr| exact (IH q Hrs Hq)].
Qed.

(** Under [rats_pos], every entry read by [nth_q] (also past the end) has a positive
    denominator. *)
Lemma rats_pos_nth_q : forall rs j, rats_pos rs = true -> 0 < snd (nth_q rs j).
Proof.
  induction rs as [| r rs IH]; intros j H; [destruct j; simpl; lia|].
  simpl in H. apply andb_prop in H as [Hr Hrs]. apply Z.ltb_lt in Hr.
  destruct j as [| j]; [exact Hr| exact (IH j Hrs)].
Qed.

(** [nonzero_int lam = true] means some entry of [lam] is nonzero. *)
Lemma nonzero_int_sound : forall lam, nonzero_int lam = true -> exists v, In v lam /\ v <> 0.
Proof.
  intros lam H. unfold nonzero_int in H. apply existsb_exists in H as [v [Hv Hnz]].
  exists v. split; [exact Hv|]. apply negb_true_iff in Hnz. apply Z.eqb_neq in Hnz. exact Hnz.
Qed.

(** [all_zero_terms ts = true]: every coefficient has numerator zero. *)
Lemma all_zero_terms_sound : forall ts t, all_zero_terms ts = true -> In t ts -> fst (fst t) = 0.
Proof.
  induction ts as [| u ts IH]; intros t H Ht; [destruct Ht|].
  simpl in H. apply andb_prop in H as [Hu Hts]. apply Z.eqb_eq in Hu.
  destruct Ht as [<- | Ht]; [exact Hu | exact (IH t Hts Ht)].
Qed.

(** (a) [check_dependent inst lam = true]: [lam] has one entry per function of the family,
    some entry is nonzero, the denominators of sigma are positive, and every coefficient of
    the expanded relation [sum_i lam_i f_i] (like terms combined) is zero. *)
Lemma check_dependent_sound : forall inst lam,
  check_dependent inst lam = true ->
  length lam = family_size inst /\
  (exists v, In v lam /\ v <> 0) /\
  (forall q, In q (ci_sigma inst) -> 0 < snd q) /\
  forall t, In t (relation_poly inst lam) -> fst (fst t) = 0.
Proof.
  intros inst lam H. unfold check_dependent in H. split_andb.
  split; [apply Nat.eqb_eq; assumption|].
  split; [apply nonzero_int_sound; assumption|].
  split; [intros q Hq; apply (rats_pos_sound (ci_sigma inst)); assumption|].
  intros t Ht. eapply all_zero_terms_sound; eassumption.
Qed.

(** [dependent_range inst lam j count = true]: [check_dependent] holds for the monomial
    activation [z^i] (no biases) for every [i] in [[j, j + count)]. *)
Lemma dependent_range_sound : forall inst lam count j,
  dependent_range inst lam j count = true ->
  forall i, (j <= i < j + count)%nat ->
    check_dependent {| ci_nvars := ci_nvars inst; ci_polys := ci_polys inst;
                       ci_sigma := unit_sigma i; ci_bias := false |} lam = true.
Proof.
  intros inst lam count. induction count as [| c IH]; intros j H i Hi; [lia|].
  simpl in H. apply andb_prop in H as [Hj Hr].
  destruct (Nat.eq_dec i j) as [-> | Hne]; [exact Hj|].
  apply (IH (S j) Hr). lia.
Qed.

(** [check_dependent_all inst lam lo d = true]: no biases, one nonzero [lam_i] per
    polynomial, and for every [j] in [lo..d] every coefficient of [sum_i lam_i p_i^j] is
    zero (by (a)). *)
Lemma check_dependent_all_sound : forall inst lam lo d,
  check_dependent_all inst lam lo d = true ->
  ci_bias inst = false /\ length lam = length (ci_polys inst) /\
  (exists v, In v lam /\ v <> 0) /\
  forall j, (lo <= j <= d)%nat ->
    let inst_j := {| ci_nvars := ci_nvars inst; ci_polys := ci_polys inst;
                     ci_sigma := unit_sigma j; ci_bias := false |} in
    check_dependent inst_j lam = true /\
    forall t, In t (relation_poly inst_j lam) -> fst (fst t) = 0.
Proof.
  intros inst lam lo d H. unfold check_dependent_all, nsub in H. split_andb.
  split; [apply negb_true_iff; assumption|].
  split; [apply Nat.eqb_eq; assumption|].
  split; [apply nonzero_int_sound; assumption|].
  intros j Hj inst_j.
  assert (Hdep : check_dependent inst_j lam = true).
  { eapply dependent_range_sound; [eassumption|]. lia. }
  split; [exact Hdep|].
  destruct (check_dependent_sound _ _ Hdep) as [_ [_ [_ Hv]]].
  exact Hv.
Qed.

(** [check_independent inst w k = true]: [k] is the size of the family, the modulus is
    usable, there are [k] points, and the recomputed evaluation matrix
    [M[i][j] = f_i(v_j) mod p] times the witness inverse is the identity mod p, row by row. *)
Lemma check_independent_sound : forall inst w k,
  check_independent inst w k = true ->
  k = family_size inst /\ p_ok (iw_p w) = true /\ length (iw_points w) = k /\
  let M := family_matrix_mod (iw_p w) (ci_bias inst)
             (rats_mod (iw_p w) (ci_sigma inst) (iw_sigma_inv w))
             (ci_polys inst) (iw_polys_inv w) (iw_points w) in
  length M = k /\ length (iw_inv w) = k /\
  forall j row, nth_error (reduce_rows (iw_p w) M) j = Some row ->
    is_unit_row j (combo_mod (Uint63.of_Z (iw_p w)) k row
                     (reduce_int_rows (Uint63.of_Z (iw_p w)) (iw_inv w))) = true.
Proof.
  intros inst w k H. unfold check_independent in H. split_andb.
  split; [apply Nat.eqb_eq; assumption|].
  split; [assumption|].
  split; [apply Nat.eqb_eq; assumption|].
  apply check_inverse_sound. assumption.
Qed.

(** [horner] on fractions at [0 = (0, 1)] has the numerator of the constant term (so
    [sigma(0) = 0] as a rational whenever the constant term's numerator is 0). *)
Lemma horner_q_at_zero : forall cs,
  fst (horner arith_q cs (0, 1)) = fst (nth 0 cs (0, 1)) * snd (horner arith_q (tl cs) (0, 1)).
Proof.
  destruct cs as [| c cs]; [reflexivity|].
  change (horner arith_q (c :: cs) (0, 1)) with (qadd c (qmul (0, 1) (horner arith_q cs (0, 1)))).
  unfold qadd, qmul. cbn [fst snd nth tl]. ring.
Qed.

(** (b) [check_prop33 sigma = true]: with [r = length sigma - 1 >= 2] and positive
    denominators, the three coefficient facts hold: [a_0 = 0] (so [sigma(0) = 0]),
    [a_r <> 0] (so [deg sigma = r]) and [a_(r-1) <> 0]. *)
Lemma check_prop33_sound : forall sigma,
  check_prop33 sigma = true ->
  (2 <= length sigma - 1)%nat /\ (forall q, In q sigma -> 0 < snd q) /\
  fst (nth 0 sigma (0, 1)) = 0 /\
  fst (nth (length sigma - 1) sigma (0, 1)) <> 0 /\
  fst (nth (length sigma - 1 - 1) sigma (0, 1)) <> 0 /\
  fst (horner arith_q sigma (0, 1)) = 0.
Proof.
  intros sigma H. unfold check_prop33, nonzero_q, nsub in H. split_andb.
  rewrite !nth_q_nth in *.
  repeat match goal with
         | Hb : negb (negb _) = true |- _ => rewrite negb_involutive in Hb
         | Hb : negb _ = true |- _ => apply negb_true_iff, Z.eqb_neq in Hb
         | Hb : Z.eqb _ _ = true |- _ => apply Z.eqb_eq in Hb
         | Hb : Nat.leb _ _ = true |- _ => apply Nat.leb_le in Hb
         end.
  split; [assumption|]. split; [intros q Hq; exact (rats_pos_sound sigma q H Hq)|].
  assert (Ha0 : fst (nth 0 sigma (0, 1)) = 0) by assumption.
  split; [exact Ha0|]. split; [assumption|]. split; [assumption|].
  rewrite horner_q_at_zero, Ha0. reflexivity.
Qed.

(** [delta2] has a positive denominator when [sigma]'s denominators are positive. *)
Lemma delta2_den_pos : forall sigma, rats_pos sigma = true -> 0 < snd (delta2 sigma).
Proof.
  intros sigma H. unfold delta2, qadd, qneg, qmul3, qmul, qint. cbn [fst snd].
  pose proof (rats_pos_nth_q sigma (nsub (length sigma) 1) H).
  pose proof (rats_pos_nth_q sigma (nsub (nsub (length sigma) 1) 1) H).
  pose proof (rats_pos_nth_q sigma (nsub (nsub (length sigma) 1) 2) H).
  repeat apply Z.mul_pos_pos; lia.
Qed.

(** [delta3] has a positive denominator when [sigma]'s denominators are positive. *)
Lemma delta3_den_pos : forall sigma, rats_pos sigma = true -> 0 < snd (delta3 sigma).
Proof.
  intros sigma H. unfold delta3, qadd, qneg, qmul3, qmul, qint. cbn [fst snd].
  pose proof (rats_pos_nth_q sigma (nsub (length sigma) 1) H).
  pose proof (rats_pos_nth_q sigma (nsub (nsub (length sigma) 1) 1) H).
  pose proof (rats_pos_nth_q sigma (nsub (nsub (length sigma) 1) 2) H).
  pose proof (rats_pos_nth_q sigma (nsub (nsub (length sigma) 1) 3) H).
  repeat apply Z.mul_pos_pos; lia.
Qed.

(** [check_prop21 sigma d2 d3 = true]: [r = length sigma - 1 >= 3], positive
    denominators, [a_r <> 0], [Delta_2(sigma) = d2] and [Delta_3(sigma) = d3] as rationals,
    and both are nonzero rationals. *)
Lemma check_prop21_sound : forall sigma d2 d3,
  check_prop21 sigma d2 d3 = true ->
  (3 <= length sigma - 1)%nat /\ (forall q, In q sigma -> 0 < snd q) /\
  0 < snd d2 /\ 0 < snd d3 /\
  fst (nth (length sigma - 1) sigma (0, 1)) <> 0 /\
  fst (delta2 sigma) * snd d2 = fst d2 * snd (delta2 sigma) /\
  fst (delta3 sigma) * snd d3 = fst d3 * snd (delta3 sigma) /\
  0 < snd (delta2 sigma) /\ 0 < snd (delta3 sigma) /\
  fst (delta2 sigma) <> 0 /\ fst (delta3 sigma) <> 0.
Proof.
  intros sigma d2 d3 H. unfold check_prop21, nonzero_q, qeq, nsub in H. split_andb.
  rewrite !nth_q_nth in *.
  repeat match goal with
         | Hb : negb _ = true |- _ => apply negb_true_iff, Z.eqb_neq in Hb
         | Hb : Z.eqb _ _ = true |- _ => apply Z.eqb_eq in Hb
         | Hb : Nat.leb _ _ = true |- _ => apply Nat.leb_le in Hb
         end.
  assert (Hd : 0 < snd d2 /\ 0 < snd d3).
  { split; apply (rats_pos_sound [d2; d3]); simpl; auto. }
  pose proof (delta2_den_pos sigma H) as P2. pose proof (delta3_den_pos sigma H) as P3.
  split; [assumption|]. split; [intros q Hq; exact (rats_pos_sound sigma q H Hq)|].
  split; [tauto|]. split; [tauto|]. split; [assumption|].
  split; [assumption|]. split; [assumption|]. split; [exact P2|]. split; [exact P3|].
  split; intros Hz.
  - rewrite Hz in *. assert (fst d2 * snd (delta2 sigma) = 0) by lia. nia.
  - rewrite Hz in *. assert (fst d3 * snd (delta3 sigma) = 0) by lia. nia.
Qed.
