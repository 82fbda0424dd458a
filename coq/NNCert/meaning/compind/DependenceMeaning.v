(** What a composition-dependence fact means (issue 24), over Coq's rationals [Q] (QArith,
    no axioms): [check_dependent inst lam = true] gives a nonzero integer vector [lam] with
    [lam_0 + sum_i lam_i sigma(p_i(x)) = 0] (the [lam_0] term only with biases) for every
    point [x] of [Q^nvars]; [check_dependent_all inst lam lo d = true] gives
    [sum_i lam_i p_i(x)^j = 0] for every [j] in [lo..d] and every [x], hence the relation
    [sum_i lam_i sigma(p_i(x)) = 0] for every activation [sigma = sum_(j=lo)^d a_j z^j].

    The statements use their own evaluation over [Q] ([poly_Q], [horner_Q], [qpow]) of the
    instance's terms [((num, den), exponents)], not the kernel's: the proofs show that the
    kernel's term algebra of Compind.v ([term_mul], [poly_mul_t], [add_term], [normalize],
    [compose_t], [relation_poly]) evaluates to the sums and products it stands for, under
    the invariants the check tests ([polys_ok]: every exponent vector has [nvars] entries and
    every denominator is positive; [rats_pos sigma]). Proved once here; a certificate derives
    its theorem by one [exact]. *)
From Coq Require Import ZArith QArith List Bool Lia.
From NNCert Require Import Lists Arith Net Rank CheckerSound Compind CompindSound CompindMeaning.
Import ListNotations.
Local Open Scope Q_scope.

(** ** The statements' evaluation over Q. *)

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

(** ** Invariants: positive denominators, exponent vectors of length [n]. *)

Definition term_ok (n : nat) (t : (Z * Z) * list nat) : Prop :=
  (0 < snd (fst t))%Z /\ length (snd t) = n.

Definition terms_ok (n : nat) (ts : list ((Z * Z) * list nat)) : Prop := Forall (term_ok n) ts.

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

Lemma compose_t_ok n sigma p :
  rats_pos sigma = true -> terms_ok n p -> terms_ok n (compose_t n sigma p).
Proof.
  intros Hs Hp. induction sigma as [| c cs IH]; cbn [compose_t]; [constructor|].
  simpl in Hs. apply andb_prop in Hs as [Hc Hcs]. apply Z.ltb_lt in Hc.
  apply normalize_ok. constructor; [apply const_term_ok; exact Hc|].
  apply poly_mul_t_ok; [exact Hp | apply IH; exact Hcs].
Qed.

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

Lemma all_zero_terms_Q ts xs : all_zero_terms ts = true -> poly_Q ts xs == 0.
Proof.
  induction ts as [| t ts IH]; intros H; simpl; [reflexivity|].
  simpl in H. apply andb_prop in H as [Ht Hts]. apply Z.eqb_eq in Ht.
  rewrite IH, to_Q_zero by assumption. ring.
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
