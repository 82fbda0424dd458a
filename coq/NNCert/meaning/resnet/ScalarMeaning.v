(** What the coefficients of a scalar ResNet mean (issue 24), over Coq's rationals [Q]
    (QArith, no axioms): [check_scalar_coeffs inst cs = true] gives, for the width-1 ResNet
    [x <- x + sigma_l(w_l x + b_l)] (times [v_l] when [outer]) at the point theta of [inst],
    [F_theta(x) = sum_k c_k x^k] at every rational [x] ([scalar_coeffs]).
    - [F_theta] is Jacobian.v's [resnet_forward], the forward evaluator the rank and orbit
      theorems use, run over [Q] ([arith_Q]); the parameters and activation coefficients are
      the instance's fractions read by [to_Q].
    - The kernel runs the same network (its forward mode, whose value part is
      [resnet_forward]: [Jacobian.resnet_dual_fst]) over the term algebra [arith_terms 1] of
      ResNet.v, polynomials in [x] as term lists. Evaluating a term list at [x] ([poly_Q],
      DependenceMeaning.v) respects [0], [1], [+] and [*] under the invariant that every term
      has a positive denominator and one exponent ([RT]), so by parametricity
      ([Jacobian.resnet_forward_rel]) the kernel's polynomial evaluates to [F_theta(x)].
    - The check says that this polynomial minus [sum_k c_k x^k], like terms combined, has
      only zero coefficients ([neg_coeff_terms]), so the two agree at every [x].
    Proved once here; a certificate derives its theorem by one [exact]. *)
From Coq Require Import ZArith QArith List Bool Lia.
From NNCert Require Import Lists Arith Net Rank Compind ResNet Jacobian.
From NNCert Require Import TermsMeaning.
Import ListNotations.
Local Open Scope Q_scope.

(** Coq's rationals as an [arith] (Arith.v): the carrier of the statements. *)
Definition arith_Q : arith Q := mk_arith Q Qplus Qmult 0 1.

(** [F_theta(x)] over [Q] at any parameter vector [th]. *)
Definition resnet_at (inst : resnet_instance) (th : list Q) (x : Q) : list Q :=
  resnet_forward arith_Q (rn_width inst) (rn_outer inst) (map (map to_Q) (rn_acts inst)) th [x].

(** [F_theta(x)] over [Q]: the ResNet of [inst] at its own point theta. *)
Definition resnet_Q (inst : resnet_instance) (x : Q) : list Q :=
  resnet_at inst (map to_Q (rn_theta inst)) x.

(** The statement of a [coefficients] lemma: the network is scalar (width 1), [cs] has
    [D + 1] entries ([D = degree_bound], the product of the activations' degrees), and
    [F_theta(x) = sum_k cs[k] x^k] (Horner's form [horner_Q]) at every rational [x]. *)
Definition scalar_coeffs (inst : resnet_instance) (cs : list (Z * Z)) : Prop :=
  rn_width inst = 1%nat /\ length cs = S (degree_bound (rn_acts inst)) /\
  forall x : Q, Forall2 Qeq (resnet_Q inst x) [horner_Q (map to_Q cs) x].

(** ** The term algebra evaluated at a point *)

(** [t] is a well-formed polynomial in [n] variables whose value at [xs] is [q]. *)
Definition RT (n : nat) (xs : list Q) (q : Q) (t : list ((Z * Z) * list nat)) : Prop :=
  terms_ok n t /\ poly_Q t xs == q.

Section TermAlgebra.
Variables (n : nat) (xs : list Q).
Hypothesis Lxs : length xs = n.

Lemma RT0 : RT n xs (zero arith_Q) (zero (arith_terms n)).
Proof. split; [constructor| reflexivity]. Qed.

(** A constant [c] (positive denominator) as a one-term polynomial has the value [c]. *)
Lemma RT_const c : (0 < snd c)%Z -> RT n xs (to_Q c) [const_term c n].
Proof.
  intros Hc. split; [constructor; [apply const_term_ok; exact Hc| constructor]|].
  unfold const_term. simpl. rewrite mono_Q_zero. ring.
Qed.

Lemma RT1 : RT n xs (one arith_Q) (one (arith_terms n)).
Proof.
  simpl. destruct (RT_const (1, 1)%Z eq_refl) as [H1 H2].
  split; [exact H1|]. rewrite H2. reflexivity.
Qed.

Lemma RTadd : forall a a' b b', RT n xs a b -> RT n xs a' b' ->
  RT n xs (add arith_Q a a') (add (arith_terms n) b b').
Proof.
  intros a a' b b' [Hb Ha] [Hb' Ha']. simpl.
  assert (Hok : terms_ok n (b ++ b')) by (apply terms_ok_app; assumption).
  split; [apply normalize_ok; exact Hok|].
  rewrite (normalize_Q n), poly_Q_app, Ha, Ha' by exact Hok. reflexivity.
Qed.

Lemma RTmul : forall a a' b b', RT n xs a b -> RT n xs a' b' ->
  RT n xs (mul arith_Q a a') (mul (arith_terms n) b b').
Proof.
  intros a a' b b' [Hb Ha] [Hb' Ha']. simpl.
  assert (Hok : terms_ok n (poly_mul_t b b')) by (apply poly_mul_t_ok; assumption).
  split; [apply normalize_ok; exact Hok|].
  rewrite (normalize_Q n), (poly_mul_t_Q n), Ha, Ha' by assumption. reflexivity.
Qed.

End TermAlgebra.

Lemma RT_consts n xs cs : rats_pos cs = true ->
  Forall2 (RT n xs) (map to_Q cs) (map (fun c => [const_term c n]) cs).
Proof.
  induction cs as [| c cs IH]; simpl; intros H; [constructor|].
  apply andb_prop in H as [Hc Hcs]. apply Z.ltb_lt in Hc.
  constructor; [apply RT_const; assumption| apply IH; exact Hcs].
Qed.

Lemma RT_acts n xs acts : acts_pos acts = true ->
  Forall2 (Forall2 (RT n xs)) (map (map to_Q) acts)
    (map (map (fun c => [const_term c n])) acts).
Proof.
  induction acts as [| a acts IH]; simpl; intros H; [constructor|].
  apply andb_prop in H as [Ha Has]. constructor; [apply RT_consts|apply IH]; assumption.
Qed.

(** ** The kernel's polynomial [F_theta(x)] *)

(** At width one the kernel's [theta_map_terms] evaluates to the single output of
    [F_theta(x)]. *)
Lemma theta_map_terms_Q inst x :
  rn_width inst = 1%nat -> rats_pos (rn_theta inst) = true -> acts_pos (rn_acts inst) = true ->
  exists y, resnet_Q inst x = [y] /\ poly_Q (theta_map_terms inst) [x] == y /\
    terms_ok 1 (theta_map_terms inst).
Proof.
  intros Hw Ht Ha.
  assert (Lx : length [x] = 1%nat) by reflexivity.
  assert (Hrel := resnet_forward_rel arith_Q (arith_terms 1) (RT 1 [x])
    (RT0 1 [x]) (RT1 1 [x]) (RTadd 1 [x]) (RTmul 1 [x] Lx) 1 (rn_outer inst)
    _ _ _ _ [x] [var_terms 1 0] (RT_acts 1 [x] _ Ha) (RT_consts 1 [x] _ Ht)).
  assert (Hx : Forall2 (RT 1 [x]) [x] [var_terms 1 0]).
  { constructor; [|constructor]. split.
    - constructor; [split; reflexivity| constructor].
    - simpl. unfold to_Q. simpl. field. }
  specialize (Hrel Hx).
  assert (Hlen := resnet_forward_length arith_Q 1 (rn_outer inst)
    (map (map to_Q) (rn_acts inst)) (map to_Q (rn_theta inst)) [x] (le_n 1)).
  unfold resnet_Q, resnet_at. rewrite Hw.
  unfold theta_map_terms. rewrite resnet_dual_fst.
  destruct (resnet_forward arith_Q 1 (rn_outer inst) (map (map to_Q) (rn_acts inst))
    (map to_Q (rn_theta inst)) [x]) as [| y [| y' ys]]; simpl in Hlen; try discriminate.
  inversion Hrel as [| a t l l' [Hok Hv] Hnil]; subst. inversion Hnil; subst.
  exists y. split; [reflexivity|]. simpl. split; assumption.
Qed.

(** [poly_Q] of [neg_coeff_terms k cs] at [x] is [- x^k sum_j cs[j] x^j]. *)
Lemma neg_coeff_terms_Q k cs x : rats_pos cs = true ->
  poly_Q (neg_coeff_terms k cs) [x] == - (qpow x k * horner_Q (map to_Q cs) x).
Proof.
  revert k. induction cs as [| c cs IH]; intros k H; simpl; [ring|].
  simpl in H. apply andb_prop in H as [Hc Hcs]. apply Z.ltb_lt in Hc.
  rewrite IH, to_Q_neg by assumption. simpl. ring.
Qed.

Lemma neg_coeff_terms_ok k cs : rats_pos cs = true -> terms_ok 1 (neg_coeff_terms k cs).
Proof.
  revert k. induction cs as [| c cs IH]; intros k H; simpl; [constructor|].
  simpl in H. apply andb_prop in H as [Hc Hcs]. apply Z.ltb_lt in Hc.
  constructor; [split; [exact Hc| reflexivity]| apply IH; exact Hcs].
Qed.

(** ** The theorem the certificates apply *)

(** [check_scalar_coeffs inst cs = true]: [F_theta(x) = sum_k c_k x^k] at every rational
    [x], for the scalar ResNet at theta. *)
Theorem scalar_coeffs_meaning inst cs :
  check_scalar_coeffs inst cs = true -> scalar_coeffs inst cs.
Proof.
  unfold check_scalar_coeffs. intros H.
  apply andb_prop in H as [H Hz]. apply andb_prop in H as [H Hlen].
  apply andb_prop in H as [H Hcs]. apply andb_prop in H as [H Ha].
  apply andb_prop in H as [H Ht]. apply andb_prop in H as [Hw _].
  apply Nat.eqb_eq in Hw. apply Nat.eqb_eq in Hlen.
  split; [exact Hw|]. split; [exact Hlen|].
  intros x.
  destruct (theta_map_terms_Q inst x Hw Ht Ha) as [y [Hy [Hv Hok]]].
  rewrite Hy. constructor; [|constructor].
  assert (Hok2 : terms_ok 1 (theta_map_terms inst ++ neg_coeff_terms 0 cs))
    by (apply terms_ok_app; [exact Hok| apply neg_coeff_terms_ok; exact Hcs]).
  (* F_theta(x) - sum_k c_k x^k is the value of the checked polynomial: zero *)
  pose proof (all_zero_terms_Q _ [x] Hz) as H0.
  rewrite (normalize_Q 1), poly_Q_app, Hv, neg_coeff_terms_Q in H0 by assumption.
  transitivity (y + - (qpow x 0 * horner_Q (map to_Q cs) x) + horner_Q (map to_Q cs) x);
    [simpl; ring|].
  rewrite H0. ring.
Qed.

(** * Implicit equations *)

(** The statement of an [implicit_check] lemma: the network is scalar, [free] has one flag
    per parameter, and for every rational parameter vector [th] that is 0 where not free
    there are rationals [c_0, ..., c_degree] with [F_th(x) = sum_k c_k x^k] at every rational
    [x] (the coefficients of [F_th]) that satisfy the equation: [eq(c_0, ..., c_degree) = 0],
    [eq] a polynomial with terms [((num, den), exponents of c_0, ..., c_degree)] evaluated by
    [poly_Q]. *)
Definition implicit_equation (inst : resnet_instance) (free : list bool) (degree : nat)
    (eq : list ((Z * Z) * list nat)) : Prop :=
  rn_width inst = 1%nat /\ length free = resnet_params 1 (rn_acts inst) (rn_outer inst) /\
  forall th : list Q, length th = length free ->
    (forall k, nth k free false = false -> nth k th 0 == 0) ->
    exists c : list Q, length c = S degree /\
      (forall x : Q, Forall2 Qeq (resnet_at inst th x) [horner_Q c x]) /\ poly_Q eq c == 0.

(** ** The kernel's generic evaluators (Compind.v) respect [RT] *)

Section Generic.
Variables (n : nat) (xs : list Q).
Hypothesis Lxs : length xs = n.

Lemma pow_ar_RT a t e : RT n xs a t -> RT n xs (pow_ar arith_Q a e) (pow_ar (arith_terms n) t e).
Proof.
  intros H. induction e as [| e IH]; [exact (RT1 n xs)|].
  exact (RTmul n xs Lxs _ _ _ _ H IH).
Qed.

Lemma mono_eval_RT es : forall qs ts, Forall2 (RT n xs) qs ts ->
  RT n xs (mono_eval arith_Q es qs) (mono_eval (arith_terms n) es ts).
Proof.
  induction es as [| e es IH]; intros qs ts H; [exact (RT1 n xs)|].
  destruct H as [| a t qs ts Ha Hs]; [exact (RT1 n xs)|].
  exact (RTmul n xs Lxs _ _ _ _ (pow_ar_RT a t e Ha) (IH qs ts Hs)).
Qed.

Lemma poly_eval_RT cs cs' ess qs ts : Forall2 (RT n xs) cs cs' -> Forall2 (RT n xs) qs ts ->
  RT n xs (poly_eval arith_Q cs ess qs) (poly_eval (arith_terms n) cs' ess ts).
Proof.
  intros Hc Hs. revert ess.
  induction Hc as [| c c' cs cs' Hc0 Hc IH]; intros [| es ess]; try exact (RT0 n xs).
  exact (RTadd n xs _ _ _ _ (RTmul n xs Lxs _ _ _ _ Hc0 (mono_eval_RT es _ _ Hs)) (IH ess)).
Qed.

Lemma horner_RT cs cs' a t : Forall2 (RT n xs) cs cs' -> RT n xs a t ->
  RT n xs (horner arith_Q cs a) (horner (arith_terms n) cs' t).
Proof.
  intros Hc Ha. induction Hc as [| c c' cs cs' Hc0 Hc IH]; [exact (RT0 n xs)|].
  exact (RTadd n xs _ _ _ _ Hc0 (RTmul n xs Lxs _ _ _ _ Ha IH)).
Qed.

End Generic.

(** Over [Q] the kernel's generic evaluators are the statements' ones. *)
Lemma horner_arith_Q cs a : horner arith_Q cs a = horner_Q cs a.
Proof. induction cs as [| c cs IH]; simpl; [reflexivity| rewrite IH; reflexivity]. Qed.

Lemma pow_arith_Q a e : pow_ar arith_Q a e = qpow a e.
Proof. induction e as [| e IH]; simpl; [reflexivity| rewrite IH; reflexivity]. Qed.

Lemma mono_arith_Q es : forall qs, mono_eval arith_Q es qs = mono_Q es qs.
Proof.
  induction es as [| e es IH]; intros [| q qs]; simpl; try reflexivity.
Qed.

Lemma poly_eval_arith_Q p qs :
  poly_eval arith_Q (map to_Q (term_coeffs p)) (term_exps p) qs = poly_Q p qs.
Proof.
  induction p as [| t p IH]; simpl; [reflexivity|].
  rewrite mono_arith_Q, IH. reflexivity.
Qed.

(** [horner_Q] respects [Qeq] entrywise. *)
Lemma horner_Q_Qeq cs cs' y : Forall2 Qeq cs cs' -> horner_Q cs y == horner_Q cs' y.
Proof. intros H. induction H; simpl; [reflexivity| rewrite H, IHForall2; reflexivity]. Qed.

(** ** Variables *)

Lemma mono_Q_zeros : forall m s k qs, (k < s)%nat ->
  mono_Q (map (fun j => if Nat.eqb j k then 1%nat else 0%nat) (seq s m)) qs == 1.
Proof.
  induction m as [| m IH]; intros s k qs Hk; [reflexivity|].
  destruct qs as [| q qs]; simpl; [reflexivity|].
  replace (Nat.eqb s k) with false by (symmetry; apply Nat.eqb_neq; lia).
  rewrite IH by lia. simpl. ring.
Qed.

(** The monomial of [unit_exps] picks one entry of the point. *)
Lemma mono_Q_unit : forall m s k qs, length qs = m -> (s <= k < s + m)%nat ->
  mono_Q (map (fun j => if Nat.eqb j k then 1%nat else 0%nat) (seq s m)) qs == nth (k - s) qs 0.
Proof.
  induction m as [| m IH]; intros s k qs Lq Hk; [lia|].
  destruct qs as [| q qs]; [discriminate|]. simpl in Lq. injection Lq as Lq. simpl.
  destruct (Nat.eqb_spec s k) as [E|E].
  - subst s. rewrite mono_Q_zeros by lia. rewrite Nat.sub_diag. simpl. ring.
  - rewrite (IH (S s) k qs Lq) by lia.
    replace (k - s)%nat with (S (k - S s)) by lia. simpl. ring.
Qed.

(** The variable [k] of [var_terms] evaluates to entry [k] of the point. *)
Lemma RT_var nv xs k : length xs = nv -> (k < nv)%nat -> RT nv xs (nth k xs 0) (var_terms nv k).
Proof.
  intros Lx Hk. split.
  - constructor; [split; [reflexivity|]|constructor].
    unfold unit_exps. simpl. rewrite map_length, seq_length. reflexivity.
  - unfold var_terms, unit_exps. simpl. rewrite (mono_Q_unit nv 0 k xs Lx) by lia.
    rewrite Nat.sub_0_r. unfold to_Q. simpl. field.
Qed.

(** [param_terms] evaluates to [th] at a point that starts with [th], when [th] is 0 where
    not free. *)
Lemma param_terms_from_RT nv xs : length xs = nv -> forall free th k,
  length th = length free -> (forall j, nth j free false = false -> nth j th 0 == 0) ->
  (forall j, (j < length free)%nat -> nth (k + j) xs 0 = nth j th 0) ->
  (k + length free < nv)%nat ->
  Forall2 (RT nv xs) th (param_terms_from nv k free).
Proof.
  intros Lx free. induction free as [| f free IH]; intros th k Lth Hz Hx Hk;
    destruct th as [| t th]; try discriminate; simpl; [constructor|].
  simpl in Lth, Hk. injection Lth as Lth. constructor.
  - destruct f.
    + pose proof (Hx 0%nat ltac:(simpl; lia)) as H0. simpl in H0.
      rewrite Nat.add_0_r in H0. rewrite <- H0. apply RT_var; [exact Lx| lia].
    + split; [constructor|]. simpl. symmetry. exact (Hz 0%nat eq_refl).
  - apply IH; [exact Lth| | |lia].
    + intros j Hj. exact (Hz (S j) Hj).
    + intros j Hj. replace (S k + j)%nat with (k + S j)%nat by lia.
      exact (Hx (S j) ltac:(simpl; lia)).
Qed.

(** ** The coefficients [coeff_x] *)

Lemma take_n_length {B : Type} : forall m (l : list B), (m <= length l)%nat ->
  length (take_n m l) = m.
Proof.
  induction m as [| m IH]; intros [| b l] H; simpl in *; try lia.
  rewrite IH by lia. reflexivity.
Qed.

Lemma coeff_x_ok P ts k : terms_ok (S P) ts -> terms_ok (S P) (coeff_x ts P k).
Proof.
  intros H. unfold coeff_x. induction H as [| t ts [Ht Lt] Hts IH]; simpl; [constructor|].
  destruct (Nat.eqb (nth_nat (snd t) P) k); simpl; [|exact IH].
  constructor; [|exact IH]. split; [exact Ht|]. simpl.
  rewrite app_length, take_n_length by lia. simpl. lia.
Qed.

(** Exponent vectors of the point's length split with the point. *)
Lemma mono_Q_app : forall a b u v, length a = length u ->
  mono_Q (a ++ b) (u ++ v) == mono_Q a u * mono_Q b v.
Proof.
  induction a as [| e a IH]; intros b [| q u] v L; simpl in *; try discriminate; [ring|].
  injection L as L. rewrite IH by exact L. ring.
Qed.

(** A coefficient of [x^k] does not depend on [x]. *)
Lemma coeff_x_indep P ts k th x x' : terms_ok (S P) ts -> length th = P ->
  poly_Q (coeff_x ts P k) (th ++ [x]) == poly_Q (coeff_x ts P k) (th ++ [x']).
Proof.
  intros H Lth. unfold coeff_x. induction H as [| t ts [Ht Lt] Hts IH]; simpl; [reflexivity|].
  destruct (Nat.eqb (nth_nat (snd t) P) k); simpl; [|exact IH].
  assert (L : length (take_n P (snd t)) = length th) by (rewrite take_n_length; lia).
  rewrite !mono_Q_app by exact L. rewrite IH. simpl. ring.
Qed.

(** ** The theorem the certificates apply *)

Lemma coeffs_x_length ts P degree : length (coeffs_x ts P degree) = S degree.
Proof. unfold coeffs_x. rewrite map_length, seq_length. reflexivity. Qed.

(** Polynomials, each related to its own value. *)
Lemma RT_polys n xs cs : Forall (terms_ok n) cs ->
  Forall2 (RT n xs) (map (fun C => poly_Q C xs) cs) cs.
Proof.
  intros H. induction H; simpl; constructor; [split; [assumption| reflexivity]| assumption].
Qed.

Lemma coeffs_x_ok P ts degree : terms_ok (S P) ts -> Forall (terms_ok (S P)) (coeffs_x ts P degree).
Proof.
  intros H. unfold coeffs_x. apply Forall_forall. intros C HC.
  apply in_map_iff in HC as [k [<- _]]. apply coeff_x_ok. exact H.
Qed.

(** [F_th(x)] is the value of the kernel's [scalar_map_terms] at the point [th ++ [x]]. *)
Lemma scalar_map_terms_Q inst free th x :
  rn_width inst = 1%nat -> acts_pos (rn_acts inst) = true -> length th = length free ->
  (forall k, nth k free false = false -> nth k th 0 == 0) ->
  exists y, resnet_at inst th x = [y] /\
    RT (S (length free)) (th ++ [x]) y (scalar_map_terms inst free).
Proof.
  intros Hw Ha Lth Hz. set (P := length free) in *.
  assert (Lx : length (th ++ [x]) = S P) by (rewrite app_length, Lth; simpl; lia).
  assert (Hth : forall j, (j < P)%nat -> nth (0 + j) (th ++ [x]) 0 = nth j th 0).
  { intros j Hj. apply app_nth1. lia. }
  assert (Hx : Forall2 (RT (S P) (th ++ [x])) [x] [var_terms (S P) P]).
  { constructor; [|constructor].
    pose proof (RT_var (S P) (th ++ [x]) P Lx ltac:(lia)) as Hv.
    rewrite app_nth2, Lth, Nat.sub_diag in Hv by lia. exact Hv. }
  pose proof (resnet_forward_rel arith_Q (arith_terms (S P)) (RT (S P) (th ++ [x]))
    (RT0 _ _) (RT1 _ _) (RTadd _ _) (RTmul _ _ Lx) 1 (rn_outer inst) _ _ th
    (param_terms (S P) free) [x] [var_terms (S P) P] (RT_acts _ _ _ Ha)
    (param_terms_from_RT (S P) (th ++ [x]) Lx free th 0 Lth Hz Hth ltac:(lia)) Hx) as Hrel.
  assert (Hlen := resnet_forward_length arith_Q 1 (rn_outer inst)
    (map (map to_Q) (rn_acts inst)) th [x] (le_n 1)).
  unfold resnet_at. rewrite Hw.
  unfold scalar_map_terms. cbv zeta. rewrite resnet_dual_fst. fold P.
  destruct (resnet_forward arith_Q 1 (rn_outer inst) (map (map to_Q) (rn_acts inst)) th [x])
    as [| y [| y' ys]]; simpl in Hlen; try discriminate.
  inversion Hrel as [| a t l l' Ht Hnil]; subst. inversion Hnil; subst.
  exists y. split; [reflexivity| exact Ht].
Qed.

(** [check_implicit inst free degree eq = true]: for every rational parameter vector that
    is 0 where not free, the coefficients of [F_th] satisfy [eq]. *)
Theorem implicit_meaning inst free degree eq :
  check_implicit inst free degree eq = true -> implicit_equation inst free degree eq.
Proof.
  unfold check_implicit. cbv zeta. intros H.
  apply andb_prop in H as [H Hval]. apply andb_prop in H as [H Hexp].
  apply andb_prop in H as [H _]. apply andb_prop in H as [H Hrats].
  apply andb_prop in H as [H _]. apply andb_prop in H as [H HP].
  apply andb_prop in H as [H Ha]. apply andb_prop in H as [H _].
  apply andb_prop in H as [Hw _].
  apply Nat.eqb_eq in Hw. apply Nat.eqb_eq in HP.
  split; [exact Hw|]. split; [exact HP|].
  intros th Lth Hz.
  set (P := length free) in *. set (ts := scalar_map_terms inst free) in *.
  set (cs := coeffs_x ts P degree) in *.
  assert (Lx : forall x, length (th ++ [x]) = S P)
    by (intros x; rewrite app_length, Lth; simpl; lia).
  destruct (scalar_map_terms_Q inst free th 0 Hw Ha Lth Hz) as [y0 [_ [Hok _]]].
  assert (Hcs : Forall (terms_ok (S P)) cs) by exact (coeffs_x_ok P ts degree Hok).
  set (c := map (fun C => poly_Q C (th ++ [0])) cs).
  exists c. split; [unfold c; rewrite map_length; apply coeffs_x_length|]. split.
  - intros x. destruct (scalar_map_terms_Q inst free th x Hw Ha Lth Hz) as [y [Hy [_ Hv]]].
    fold ts in Hv. rewrite Hy. constructor; [|constructor].
    (* F_th(x) = sum_k C_k(th, x) x^k: the kernel's F minus its expansion is zero *)
    assert (HX : RT (S P) (th ++ [x]) x (var_terms (S P) P)).
    { pose proof (RT_var (S P) (th ++ [x]) P (Lx x) ltac:(lia)) as HX.
      rewrite app_nth2, Lth, Nat.sub_diag in HX by lia. exact HX. }
    destruct (horner_RT (S P) (th ++ [x]) (Lx x) _ cs x _ (RT_polys _ _ _ Hcs) HX)
      as [Hhok Hh].
    assert (Hm : term_ok (S P) (const_term (-1, 1)%Z (S P))) by (apply const_term_ok; reflexivity).
    pose proof (all_zero_terms_Q _ (th ++ [x]) Hexp) as E.
    rewrite (normalize_Q (S P)), poly_Q_app, (terms_scale_Q (S P)), Hv, Hh in E
      by (try apply terms_ok_app; try apply terms_scale_ok; auto).
    assert (Hone : term_Q (const_term (-1, 1)%Z (S P)) (th ++ [x]) == -1)
      by (unfold term_Q, const_term; cbn [fst snd]; rewrite mono_Q_zero; unfold to_Q;
          cbn [fst snd]; field).
    rewrite Hone, horner_arith_Q in E.
    setoid_replace y with (y + -1 * horner_Q (map (fun C => poly_Q C (th ++ [x])) cs) x
      + horner_Q (map (fun C => poly_Q C (th ++ [x])) cs) x) by ring.
    rewrite E, Qplus_0_l. apply horner_Q_Qeq. unfold c.
    (* the coefficients do not depend on x *)
    unfold cs, coeffs_x. induction (seq 0 (S degree)) as [| k ks IH]; simpl; constructor.
    + apply coeff_x_indep; [exact Hok| exact Lth].
    + exact IH.
  - (* eq(c) = 0: the kernel's eq(C_0, ..., C_degree) is zero, evaluated at th ++ [0] *)
    destruct (poly_eval_RT (S P) (th ++ [0]) (Lx 0) _ _ (term_exps eq) c cs
      (RT_consts _ _ _ Hrats) (RT_polys _ _ _ Hcs)) as [Hpok Hpe].
    pose proof (all_zero_terms_Q _ (th ++ [0]) Hval) as E.
    rewrite (normalize_Q (S P)), Hpe, poly_eval_arith_Q in E by exact Hpok.
    exact E.
Qed.
