(** What a composition-dependence fact means (issue 24), over Coq's rationals [Q] (QArith,
    no axioms): [check_dependent inst lam = true] gives a nonzero integer vector [lam] with
    [lam_0 + sum_i lam_i sigma(p_i(x)) = 0] (the [lam_0] term only with biases) for every
    point [x] of [Q^nvars]; [check_dependent_all inst lam lo d = true] gives
    [sum_i lam_i p_i(x)^j = 0] for every [j] in [lo..d] and every [x], hence the relation
    [sum_i lam_i sigma(p_i(x)) = 0] for every activation [sigma = sum_(j=lo)^d a_j z^j].

    The statements use their own evaluation over [Q] ([poly_Q], [horner_Q], [qpow] of
    TermsMeaning.v) of the instance's terms [((num, den), exponents)], not the kernel's: the
    proofs show that the kernel's term algebra of Compind.v ([term_mul], [poly_mul_t],
    [add_term], [normalize]: TermsMeaning.v; [compose_t], [relation_poly]: here) evaluates to
    the sums and products it stands for, under the invariants the check tests ([polys_ok]:
    every exponent vector has [nvars] entries and every denominator is positive;
    [rats_pos sigma]). Proved once; a certificate derives its theorem by one [exact]. *)
From Coq Require Import ZArith QArith List Bool Lia.
From NNCert Require Import Lists Arith Net Rank CheckerSound Compind CompindSound TermsMeaning.
From NNCert Require Import CompindMeaning.
Import ListNotations.
Local Open Scope Q_scope.

(** ** The statements' evaluation over Q. *)

(** [sum_i lam_i sigma(p_i(xs))] (to the shorter of [ps] and [lam]). *)
Fixpoint combination (s : list Q) (ps : list (list ((Z * Z) * list nat))) (lam : list Z)
    (xs : list Q) : Q :=
  match ps, lam with
  | p :: ps', l :: lam' => inject_Z l * horner_Q s (poly_Q p xs) + combination s ps' lam' xs
  | _, _ => 0
  end.

(** [sum_i lam_i p_i(xs)^j]. *)
Fixpoint power_combination (ps : list (list ((Z * Z) * list nat))) (lam : list Z) (j : nat)
    (xs : list Q) : Q :=
  match ps, lam with
  | p :: ps', l :: lam' => inject_Z l * qpow (poly_Q p xs) j + power_combination ps' lam' j xs
  | _, _ => 0
  end.

(** The value at [xs] of the relation [sum_i lam_i f_i]: with biases [f_0 = 1] takes
    [lam_0], the functions [sigma(p_i)] the rest. *)
Definition relation_value (inst : compind_instance) (lam : list Z) (xs : list Q) : Q :=
  let s := map to_Q (ci_sigma inst) in
  if ci_bias inst then
    match lam with
    | [] => 0
    | l0 :: ls => inject_Z l0 + combination s (ci_polys inst) ls xs
    end
  else combination s (ci_polys inst) lam xs.

(** The instance the statement is about is well formed: every coefficient of every [p_i]
    has a positive denominator and every exponent vector has one entry per variable, so
    [poly_Q] reads each monomial in full. *)
Definition polys_well_formed (inst : compind_instance) : Prop :=
  Forall (terms_ok (ci_nvars inst)) (ci_polys inst).

(** Every coefficient of [sigma] has a positive denominator (so [to_Q] is the fraction it
    shows). *)
Definition sigma_well_formed (inst : compind_instance) : Prop :=
  Forall (fun a : Z * Z => (0 < snd a)%Z) (ci_sigma inst).

(** [lam] is a nonzero integer vector, one entry per function of the family, and
    [sum_i lam_i f_i(x) = 0] at every point [x] of [Q^nvars]: the family is linearly
    dependent over [Q]. *)
Definition dependent (inst : compind_instance) (lam : list Z) : Prop :=
  length lam = family_size inst /\ (exists v, In v lam /\ v <> 0%Z) /\
  polys_well_formed inst /\ sigma_well_formed inst /\
  forall xs : list Q, length xs = ci_nvars inst -> relation_value inst lam xs == 0.

(** [lam] is a nonzero integer vector with one entry per polynomial and, at every point [x]
    of [Q^nvars], [sum_i lam_i p_i(x)^j = 0] for [j = lo..d]; hence
    [sum_i lam_i sigma(p_i(x)) = 0] for every [sigma] with coefficients only in degrees
    [lo..d] (the family [sigma(p_1), ..., sigma(p_k)] is dependent for all such [sigma]). *)
Definition dependent_all (inst : compind_instance) (lam : list Z) (lo d : nat) : Prop :=
  length lam = length (ci_polys inst) /\ (exists v, In v lam /\ v <> 0%Z) /\
  polys_well_formed inst /\
  (forall j xs, (lo <= j <= d)%nat -> length xs = ci_nvars inst ->
     power_combination (ci_polys inst) lam j xs == 0) /\
  (forall (s : list Q) xs, (length s <= S d)%nat ->
     (forall k, (k < lo)%nat -> nth k s 0 == 0) -> length xs = ci_nvars inst ->
     combination s (ci_polys inst) lam xs == 0).

Lemma compose_t_ok n sigma p :
  rats_pos sigma = true -> terms_ok n p -> terms_ok n (compose_t n sigma p).
Proof.
  intros Hs Hp. induction sigma as [| c cs IH]; cbn [compose_t]; [constructor|].
  simpl in Hs. apply andb_prop in Hs as [Hc Hcs]. apply Z.ltb_lt in Hc.
  apply normalize_ok. constructor; [apply const_term_ok; exact Hc|].
  apply poly_mul_t_ok; [exact Hp | apply IH; exact Hcs].
Qed.

(** The kernel's [compose_t] is the composition [sigma(p)]. *)
Lemma compose_t_Q n sigma p xs :
  rats_pos sigma = true -> terms_ok n p -> length xs = n ->
  poly_Q (compose_t n sigma p) xs == horner_Q (map to_Q sigma) (poly_Q p xs).
Proof.
  intros Hs Hp Lx. induction sigma as [| c cs IH]; cbn [compose_t map horner_Q];
    [reflexivity|].
  simpl in Hs. apply andb_prop in Hs as [Hc Hcs]. apply Z.ltb_lt in Hc.
  rewrite (normalize_Q n).
  2: { constructor; [apply const_term_ok; exact Hc|].
       apply poly_mul_t_ok; [exact Hp | apply compose_t_ok; assumption]. }
  simpl. rewrite (poly_mul_t_Q n) by (try apply compose_t_ok; assumption).
  unfold const_term. simpl. rewrite mono_Q_zero, IH by exact Hcs. ring.
Qed.

Lemma to_Q_qint c : to_Q (qint c) == inject_Z c.
Proof. unfold to_Q, qint. simpl. field. Qed.

Lemma polys_ok_terms n ps : polys_ok n ps = true -> Forall (terms_ok n) ps.
Proof.
  unfold polys_ok. intros H. apply Forall_forall. intros p Hp.
  pose proof (proj1 (forallb_forall _ _) H p Hp) as Hq.
  unfold exps_ok in Hq. apply andb_prop in Hq as [Hl Hr].
  unfold terms_ok. apply Forall_forall. intros t Ht. split.
  - apply (rats_pos_sound (term_coeffs p)); [exact Hr|]. apply in_map. exact Ht.
  - clear Hr Hp H. unfold term_exps in Hl. induction p as [| u p IH]; [destruct Ht|].
    simpl in Hl. apply andb_prop in Hl as [Hu Hl]. apply Nat.eqb_eq in Hu.
    destruct Ht as [<- | Ht]; [exact Hu | exact (IH Hl Ht)].
Qed.

Lemma scaled_compositions_ok n sigma ps lam :
  rats_pos sigma = true -> Forall (terms_ok n) ps ->
  terms_ok n (scaled_compositions n sigma ps lam).
Proof.
  intros Hs Hps. revert lam. induction Hps as [| p ps Hp Hps IH]; intros [| l lam]; simpl;
    try constructor.
  apply terms_ok_app; [| apply IH].
  apply terms_scale_ok; [apply const_term_ok; simpl; lia | apply compose_t_ok; assumption].
Qed.

Lemma scaled_compositions_Q n sigma ps lam xs :
  rats_pos sigma = true -> Forall (terms_ok n) ps -> length xs = n ->
  poly_Q (scaled_compositions n sigma ps lam) xs == combination (map to_Q sigma) ps lam xs.
Proof.
  intros Hs Hps Lx. revert lam. induction Hps as [| p ps Hp Hps IH]; intros [| l lam]; simpl;
    try reflexivity.
  rewrite poly_Q_app, IH, (terms_scale_Q n) by
    (try apply const_term_ok; try apply compose_t_ok; simpl; try lia; assumption).
  unfold term_Q, const_term. simpl. rewrite mono_Q_zero, to_Q_qint, (compose_t_Q n)
    by assumption.
  ring.
Qed.

(** The kernel's [relation_poly] evaluates to the relation [sum_i lam_i f_i]. *)
Lemma relation_poly_Q inst lam xs :
  polys_ok (ci_nvars inst) (ci_polys inst) = true -> rats_pos (ci_sigma inst) = true ->
  length xs = ci_nvars inst ->
  poly_Q (relation_poly inst lam) xs == relation_value inst lam xs.
Proof.
  intros Hp Hs Lx. apply polys_ok_terms in Hp. unfold relation_poly, relation_value.
  destruct (ci_bias inst); [destruct lam as [| l0 ls]; [reflexivity|]|].
  - rewrite (normalize_Q (ci_nvars inst)).
    2: { constructor; [apply const_term_ok; simpl; lia|].
         apply scaled_compositions_ok; assumption. }
    simpl. rewrite (scaled_compositions_Q (ci_nvars inst)) by assumption.
    unfold const_term. simpl. rewrite mono_Q_zero, to_Q_qint. ring.
  - rewrite (normalize_Q (ci_nvars inst)) by (apply scaled_compositions_ok; assumption).
    apply (scaled_compositions_Q (ci_nvars inst)); assumption.
Qed.

(** ** The theorems the certificates apply. *)

(** [check_dependent inst lam = true]: the family is linearly dependent over [Q], with the
    relation [lam]. *)
Theorem dependent_meaning inst lam : check_dependent inst lam = true -> dependent inst lam.
Proof.
  intros H. destruct (check_dependent_sound _ _ H) as (Hl & Hv & _ & _).
  unfold check_dependent in H. repeat (apply andb_prop in H as [H ?]).
  split; [exact Hl|]. split; [exact Hv|].
  split; [apply polys_ok_terms; assumption|].
  split; [apply Forall_forall; intros a Ha; eapply rats_pos_sound; eassumption|].
  intros xs Lx. rewrite <- relation_poly_Q by assumption. apply all_zero_terms_Q. assumption.
Qed.

Lemma horner_unit_sigma j y : horner_Q (map to_Q (unit_sigma j)) y == qpow y j.
Proof.
  unfold unit_sigma. induction j as [| j IH]; simpl.
  - unfold to_Q. simpl. field.
  - rewrite IH. unfold to_Q. simpl. field.
Qed.

Lemma combination_unit_sigma ps lam j xs :
  combination (map to_Q (unit_sigma j)) ps lam xs == power_combination ps lam j xs.
Proof.
  revert lam. induction ps as [| p ps IH]; intros [| l lam]; simpl; try reflexivity.
  rewrite IH, horner_unit_sigma. reflexivity.
Qed.

(** [horner_Q] as the sum of its terms: [sigma(y) = sum_(k < length s) s[k] y^k], in the
    form [combination] needs (the sum over [k] from [m], shifted). *)
Fixpoint coef_sum (s : list Q) (m : nat) (f : nat -> Q) : Q :=
  match s with
  | [] => 0
  | c :: s' => c * f m + coef_sum s' (S m) f
  end.

Lemma horner_coef_sum s y m :
  qpow y m * horner_Q s y == coef_sum s m (qpow y).
Proof.
  revert m. induction s as [| c s IH]; intros m; simpl; [ring|].
  rewrite <- IH. simpl. ring.
Qed.

Lemma coef_sum_ext s m f g :
  (forall k, f k == g k) -> coef_sum s m f == coef_sum s m g.
Proof.
  intros H. revert m. induction s as [| c s IH]; intros m; simpl; [reflexivity|].
  rewrite H, IH. reflexivity.
Qed.

Lemma coef_sum_plus s m f g :
  coef_sum s m (fun k => f k + g k) == coef_sum s m f + coef_sum s m g.
Proof. revert m. induction s as [| c s IH]; intros m; simpl; [ring|]. rewrite IH. ring. Qed.

Lemma coef_sum_scale s m a f :
  coef_sum s m (fun k => a * f k) == a * coef_sum s m f.
Proof. revert m. induction s as [| c s IH]; intros m; simpl; [ring|]. rewrite IH. ring. Qed.

Lemma coef_sum_zero_f s m f : (forall k, f k == 0) -> coef_sum s m f == 0.
Proof.
  intros H. revert m. induction s as [| c s IH]; intros m; simpl; [reflexivity|].
  rewrite H, IH. ring.
Qed.

(** The relation is linear in [sigma]: for the coefficients [s] it is the sum over [k] of
    [s[k]] times the relation of [z^k]. *)
Lemma combination_coef_sum s ps lam xs :
  combination s ps lam xs == coef_sum s 0 (fun k => power_combination ps lam k xs).
Proof.
  revert lam. induction ps as [| p ps IH]; intros [| l lam]; simpl;
    try (symmetry; apply coef_sum_zero_f; intros k; reflexivity).
  rewrite IH.
  transitivity (inject_Z l * coef_sum s 0 (qpow (poly_Q p xs)) +
                coef_sum s 0 (fun k => power_combination ps lam k xs)).
  - rewrite <- horner_coef_sum. simpl. ring.
  - rewrite <- coef_sum_scale, <- coef_sum_plus. apply coef_sum_ext. intros k. reflexivity.
Qed.

Lemma coef_sum_zero s m f :
  (forall k, (m <= k < m + length s)%nat -> f k == 0 \/ nth (k - m) s 0 == 0) ->
  coef_sum s m f == 0.
Proof.
  revert m. induction s as [| c s IH]; intros m H; simpl; [reflexivity|].
  rewrite IH.
  2: { intros k Hk. destruct (H k) as [E | E]; simpl in *; [lia | left; exact E|].
       right. replace (k - m)%nat with (S (k - S m)) in E by lia. exact E. }
  destruct (H m) as [E | E]; simpl; [lia | rewrite E; ring |].
  replace (m - m)%nat with O in E by lia. simpl in E. rewrite E. ring.
Qed.

(** [check_dependent_all inst lam lo d = true]: [sum_i lam_i p_i^j = 0] over [Q] for every
    [j] in [lo..d], so the family [sigma(p_i)] is dependent for every [sigma] with
    coefficients in degrees [lo..d] only. *)
Theorem dependent_all_meaning inst lam lo d :
  check_dependent_all inst lam lo d = true -> dependent_all inst lam lo d.
Proof.
  intros H. destruct (check_dependent_all_sound _ _ _ _ H) as (_ & Hl & Hv & Hj).
  assert (Hpow : forall j xs, (lo <= j <= d)%nat -> length xs = ci_nvars inst ->
                 power_combination (ci_polys inst) lam j xs == 0).
  { intros j xs Hjd Lx. destruct (Hj j Hjd) as [Hdep _].
    destruct (dependent_meaning _ _ Hdep) as (_ & _ & _ & _ & Hrel).
    specialize (Hrel xs Lx). unfold relation_value in Hrel. simpl in Hrel.
    rewrite combination_unit_sigma in Hrel. exact Hrel. }
  split; [exact Hl|]. split; [exact Hv|].
  split.
  { apply polys_ok_terms. unfold check_dependent_all in H.
    repeat (apply andb_prop in H as [H ?]). assumption. }
  split; [exact Hpow|].
  intros s xs Ls Hlo Lx. rewrite combination_coef_sum. apply coef_sum_zero.
  intros k Hk. destruct (Nat.lt_ge_cases k lo) as [Hk' | Hk'].
  - right. rewrite Nat.sub_0_r. apply Hlo. exact Hk'.
  - left. apply Hpow; [lia | exact Lx].
Qed.
