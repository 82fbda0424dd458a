(** The generic step of a rank certificate (issue 24, item 2): from [r <= \rank] at the
    certificate's point [theta] to "[r <= \rank] at all but finitely many points of every line
    through [theta]" (lower semicontinuity of the rank, in the form a line sees it).

    The mathematics, for MLPs and ResNets:
    - [jacobian_at inst th samples] is the Jacobian of [theta -> (f_theta(x_s))_s] at any
      rational point [th] (RankMeaning.v's definition with [th] in place of the instance's
      [theta], the parameters [th + s e_j] being Backprop.v's [line]: derivatives at [s = 0]
      of the network evaluated over [{poly rat}]); at the
      instance's own [theta] it is RankMeaning.v's [mlp_jacobian] / [resnet_jacobian].
    - Along the line [th + t v], every entry is a polynomial in [t]: the network evaluated
      over [{poly {poly rat}}] (outer variable: the derivative's direction [e_j]; inner
      variable: [t]) gives a matrix [E] over [{poly rat}] with [E(t) = jacobian_at (th + t v)]
      for every rational [t] ([horner_eval t] is a ring morphism and the evaluator of
      Jacobian.v commutes with ring morphisms).
    - The kernel's check gives an invertible [r x r] minor at [t = 0] (RankSound.v's
      [*_unit_minor_sound]); the same minor's determinant [D] in [{poly rat}] has [D(0) <> 0],
      so [D <> 0]; where [rank E(t) < r], [D(t) = 0]; a nonzero polynomial has fewer roots than
      its size ([max_poly_roots]). Hence every duplicate-free list of bad [t] has at most
      [size D] elements: the statement [exists N, forall ts, uniq ts -> all bad ts ->
      size ts <= N].
    What stays cited (the claim says so): that the rank of this sample Jacobian is at most
    that of the differential of [theta -> f_theta], and that the differential's generic rank
    is the dimension of its image (the functional dimension).
    MathComp names used, checked in MathComp 1.15's sources (poly.v, matrix.v): [horner_eval]
    with its canonical [horner_eval_rmorphism], [map_poly] ([map_poly_rmorphism], [map_polyC],
    [map_polyX], [coef_map]), [det_map_mx], [map_mxsub], [unitmxE], [max_poly_roots]. *)
From Coq Require Import ZArith List Bool.
From NNCert Require Import Lists Arith Net RankCore Rank ResNet Jacobian RankMeaning Backprop.
From NNCert Require Import ElimSound RankSound.
Set Warnings "-notation-overridden,-ambiguous-paths".
From mathcomp Require Import ssreflect ssrfun ssrbool eqtype ssrnat seq choice fintype finfun.
From mathcomp Require Import div bigop ssralg poly matrix mxalgebra rat.
Import GRing.Theory.
Local Open Scope ring_scope.

(** * Lower semicontinuity along a line, for a matrix of polynomials *)

(** [E] a matrix over [{poly rat}] whose value at [t = 0] has an invertible [r x r] minor: at
    most [N] rationals [t] leave [E(t)] without one (the minor's determinant is a polynomial,
    nonzero at 0, and every such [t] is a root of it). *)
Lemma unit_minor_line m n r (E : 'M[{poly rat}]_(m, n)) :
  unit_minor r (map_mx (horner_eval 0) E) ->
  exists N : nat, forall ts : seq rat, uniq ts ->
    (forall t, t \in ts -> ~ unit_minor r (map_mx (horner_eval t) E)) -> (size ts <= N)%N.
Proof.
  move=> [f [g U]].
  pose D := \det (mxsub f g E).
  have D0 : D.[0] != 0.
  { move: U. by rewrite -map_mxsub unitmxE det_map_mx unitfE. }
  have Dn0 : D != 0 by apply: contraNneq D0 => ->; rewrite horner0.
  exists (size D) => ts Uts Hts. apply: ltnW. apply: max_poly_roots => //.
  apply/allP => t Ht. rewrite /root. apply/negPn/negP => Dt. apply: (Hts t Ht).
  exists f, g. rewrite -map_mxsub unitmxE det_map_mx unitfE. exact: Dt.
Qed.

(** ... so at most [N] rationals [t] give [\rank E(t) < r]. *)
Lemma rank_line m n r (E : 'M[{poly rat}]_(m, n)) :
  unit_minor r (map_mx (horner_eval 0) E) ->
  exists N : nat, forall ts : seq rat, uniq ts ->
    all (fun t => (\rank (map_mx (horner_eval t) E) < r)%N) ts -> (size ts <= N)%N.
Proof.
  move=> U. have [N HN] := @unit_minor_line _ _ r E U. exists N => ts Uts Hts. apply: HN => // t Ht Ut.
  have := allP Hts t Ht. by rewrite ltnNge (rank_of_unit_minor _ _ _ _ Ut).
Qed.

(** * The evaluators commute with ring morphisms *)

Section Morph.
Variables (R S : ringType) (phi : {rmorphism R -> S}).
Local Notation aR := (arith_ring R).
Local Notation aS := (arith_ring S).
Local Notation mp := (@List.map R S phi).

Lemma take_n_map n (xs : list R) : mp (take_n n xs) = take_n n (mp xs).
Proof. by elim: n xs => [| n IH] [| x xs] //=; rewrite IH. Qed.

Lemma drop_n_map n (xs : list R) : mp (drop_n n xs) = drop_n n (mp xs).
Proof. by elim: n xs => [| n IH] [| x xs] //=. Qed.

Lemma dot_map (ws xs : list R) : phi (dot aR ws xs) = dot aS (mp ws) (mp xs).
Proof.
  elim: ws xs => [| w ws IH] [| x xs] /=; rewrite ?rmorph0 //.
  by rewrite rmorphD rmorphM IH.
Qed.

Lemma layer_vals_map rowlen d (th hb : list R) :
  mp (layer_vals aR rowlen d th hb) = layer_vals aS rowlen d (mp th) (mp hb).
Proof.
  elim: d th => [| d IH] th //=.
  by rewrite dot_map take_n_map IH drop_n_map.
Qed.

Lemma with_bias_map b (h : list R) v : mp (with_bias b h v) = with_bias b (mp h) (phi v).
Proof. by case: b; rewrite /with_bias ?List.map_app. Qed.

Lemma horner_val_map (cs : list R) a :
  phi (horner_val aR cs a) = horner_val aS (mp cs) (phi a).
Proof. by elim: cs => [| c cs IH] /=; rewrite ?rmorph0 // rmorphD rmorphM IH. Qed.

Lemma map_horner_map (cs : list R) (xs : list R) :
  mp (List.map (horner_val aR cs) xs) = List.map (horner_val aS (mp cs)) (mp xs).
Proof. by elim: xs => [| x xs IH] //=; rewrite horner_val_map IH. Qed.

Lemma mlp_forward_map bias prev rest (acts : list (list R)) (th h : list R) :
  mp (mlp_forward aR bias prev rest acts th h)
  = mlp_forward aS bias prev rest (List.map mp acts) (mp th) (mp h).
Proof.
  elim: rest prev acts th h => [| d rest IH] prev acts th h //=.
  case: rest IH => [| d' rest'] IH; first by rewrite layer_vals_map with_bias_map rmorph1.
  rewrite IH drop_n_map map_horner_map layer_vals_map with_bias_map rmorph1.
  by case: acts.
Qed.

Lemma mlp_value_map widths (acts : list (list R)) bias (th x : list R) :
  mp (mlp_value aR widths acts bias th x)
  = mlp_value aS widths (List.map mp acts) bias (mp th) (mp x).
Proof. case: widths => [| d0 rest] //=. exact: mlp_forward_map. Qed.

Lemma vadd_map (a b : list R) : mp (vadd aR a b) = vadd aS (mp a) (mp b).
Proof. by elim: a b => [| x a IH] [| y b] //=; rewrite rmorphD IH. Qed.

Lemma resnet_forward_map n outer (acts : list (list R)) (th h : list R) :
  mp (resnet_forward aR n outer acts th h)
  = resnet_forward aS n outer (List.map mp acts) (mp th) (mp h).
Proof.
  elim: acts th h => [| cs acts IH] th h //=.
  rewrite IH vadd_map.
  by case: outer IH => IH; rewrite /= ?layer_vals_map ?drop_n_map map_horner_map
    layer_vals_map List.map_app /= rmorph1.
Qed.

End Morph.

(** * Points on a line, and the Jacobian at any rational point *)

(** [th + t v] entrywise ([v] padded with zeros). *)
Fixpoint on_line (th v : list rat) (t : rat) : list rat :=
  match th, v with
  | nil, _ => nil
  | a :: th', nil => a :: on_line th' nil t
  | a :: th', b :: v' => (a + t * b) :: on_line th' v' t
  end.

Lemma on_line0 th v : on_line th v 0 = th.
Proof. by elim: th v => [| a th IH] [| b v] //=; rewrite IH // mul0r addr0. Qed.

(** [d f_th(x)[k] / d th_j]: as [mlp_jac_entry], at the rational point [th]. *)
Definition mlp_jac_entry_at (inst : rank_instance) (th : list rat) (x : list Z) (k j : nat)
  : rat :=
  let P := List.nth k (mlp_value (arith_ring _ : arith {poly rat}) (widths inst)
             (List.map (List.map (fun c => (q_of c)%:P)) (acts inst)) (bias inst)
             (line th 0 j) (List.map (fun z => (zr z)%:P) x)) 0 in
  P^`().[0].

(** The Jacobian of [theta -> (f_theta(x_s))_s] at the rational point [th]. *)
Definition mlp_jacobian_at (inst : rank_instance) (th : list rat) (samples : list (list Z)) :
  'M[rat]_(length samples * last_width (widths inst), length (theta inst)) :=
  \matrix_(i, j) mlp_jac_entry_at inst th (nth_row samples (i %/ last_width (widths inst)))
                   (i %% last_width (widths inst)) j.

Lemma mlp_jacobian_at_theta inst samples :
  mlp_jacobian_at inst (List.map q_of (theta inst)) samples = mlp_jacobian inst samples.
Proof.
  apply/matrixP => i j. by rewrite !mxE /mlp_jac_entry_at /mlp_jac_entry theta_line_line.
Qed.

(** The same for a ResNet. *)
Definition resnet_jac_entry_at (inst : resnet_instance) (th : list rat) (x : list Z)
    (k j : nat) : rat :=
  let P := List.nth k (resnet_forward (arith_ring _ : arith {poly rat}) (rn_width inst)
             (rn_outer inst) (List.map (List.map (fun c => (q_of c)%:P)) (rn_acts inst))
             (line th 0 j) (List.map (fun z => (zr z)%:P) x)) 0 in
  P^`().[0].

Definition resnet_jacobian_at (inst : resnet_instance) (th : list rat)
    (samples : list (list Z)) :
  'M[rat]_(length samples * rn_width inst, length (rn_theta inst)) :=
  \matrix_(i, j) resnet_jac_entry_at inst th (nth_row samples (i %/ rn_width inst))
                   (i %% rn_width inst) j.

Lemma resnet_jacobian_at_theta inst samples :
  resnet_jacobian_at inst (List.map q_of (rn_theta inst)) samples
  = resnet_jacobian inst samples.
Proof.
  apply/matrixP => i j. by rewrite !mxE /resnet_jac_entry_at /resnet_jac_entry theta_line_line.
Qed.

(** * The Jacobian along a line, as a matrix of polynomials in [t] *)

(** The parameters [th + t v + s e_j] in [{poly {poly rat}}] (outer variable [s], inner [t]). *)
Fixpoint theta_plane (th v : list rat) (i j : nat) : list {poly {poly rat}} :=
  match th, v with
  | nil, _ => nil
  | a :: th', nil => (a%:P%:P + (if Nat.eqb i j then 'X else 0)) :: theta_plane th' nil i.+1 j
  | a :: th', b :: v' =>
      ((a%:P + b%:P * 'X)%:P + (if Nat.eqb i j then 'X else 0)) :: theta_plane th' v' i.+1 j
  end.

Section AtT.
Variable t : rat.
Local Notation ev := (map_poly (horner_eval t) : {poly {poly rat}} -> {poly rat}).

(** [ev] is a ring morphism (canonical [map_poly_rmorphism] of [horner_eval_rmorphism]). *)
Lemma evD p q : ev (p + q) = ev p + ev q. Proof. exact: rmorphD. Qed.
Lemma ev0 : ev 0 = 0. Proof. exact: rmorph0. Qed.
Lemma evX : ev 'X = 'X. Proof. exact: map_polyX. Qed.
Lemma evC (a : {poly rat}) : ev a%:P = (a.[t])%:P. Proof. exact: map_polyC. Qed.

Lemma ev_const (a : rat) : ev a%:P%:P = a%:P.
Proof. by rewrite evC hornerC. Qed.

Lemma theta_plane_at th v i j :
  List.map ev (theta_plane th v i j) = line (on_line th v t) i j.
Proof.
  elim: th v i => [| a th IH] [| b v] i //=.
  - rewrite IH evD ev_const. by case: (Nat.eqb i j); rewrite ?evX ?ev0.
  - rewrite IH evD evC hornerD hornerC hornerCM hornerX [b * t]mulrC.
    by case: (Nat.eqb i j); rewrite ?evX ?ev0.
Qed.

(** Coefficient 1 in the outer variable, then [t] for the inner one: the derivative at [s = 0]
    of the network evaluated at [th + t v + s e_j]. *)
Lemma coef1_at (P : {poly {poly rat}}) : (P`_1).[t] = (ev P)^`().[0].
Proof. by rewrite deriv_at0 coef_map. Qed.

Lemma nth_ev k (Ps : list {poly {poly rat}}) :
  ev (List.nth k Ps 0) = List.nth k (List.map ev Ps) 0.
Proof. have H := List.map_nth ev Ps 0 k. rewrite ev0 in H. by rewrite H. Qed.

End AtT.

(** Entry [(s d_out + k, j)] of the MLP Jacobian along the line [th + t v], as a polynomial
    in [t]. *)
Definition mlp_line_entry (inst : rank_instance) (th v : list rat) (x : list Z) (k j : nat)
  : {poly rat} :=
  (List.nth k (mlp_value (arith_ring _ : arith {poly {poly rat}}) (widths inst)
     (List.map (List.map (fun c => (q_of c)%:P%:P)) (acts inst)) (bias inst)
     (theta_plane th v 0 j) (List.map (fun z => (zr z)%:P%:P) x)) 0)`_1.

Definition mlp_line_matrix (inst : rank_instance) (th v : list rat) (samples : list (list Z)) :
  'M[{poly rat}]_(length samples * last_width (widths inst), length (theta inst)) :=
  \matrix_(i, j) mlp_line_entry inst th v (nth_row samples (i %/ last_width (widths inst)))
                   (i %% last_width (widths inst)) j.

Lemma mlp_line_matrix_at inst th v samples t :
  map_mx (horner_eval t) (mlp_line_matrix inst th v samples)
  = mlp_jacobian_at inst (on_line th v t) samples.
Proof.
  apply/matrixP => i j. rewrite !mxE horner_evalE /mlp_line_entry coef1_at nth_ev.
  rewrite (@mlp_value_map _ _ [rmorphism of map_poly (horner_eval t)]) theta_plane_at !List.map_map.
  rewrite /mlp_jac_entry_at. congr (_^`().[0]). congr (List.nth _ _ _).
  congr (mlp_value _ _ _ _ _ _).
  - apply: List.map_ext => cs. rewrite List.map_map. apply: List.map_ext => c. exact: ev_const.
  - apply: List.map_ext => z. exact: ev_const.
Qed.

Definition resnet_line_entry (inst : resnet_instance) (th v : list rat) (x : list Z) (k j : nat)
  : {poly rat} :=
  (List.nth k (resnet_forward (arith_ring _ : arith {poly {poly rat}}) (rn_width inst)
     (rn_outer inst) (List.map (List.map (fun c => (q_of c)%:P%:P)) (rn_acts inst))
     (theta_plane th v 0 j) (List.map (fun z => (zr z)%:P%:P) x)) 0)`_1.

Definition resnet_line_matrix (inst : resnet_instance) (th v : list rat)
    (samples : list (list Z)) :
  'M[{poly rat}]_(length samples * rn_width inst, length (rn_theta inst)) :=
  \matrix_(i, j) resnet_line_entry inst th v (nth_row samples (i %/ rn_width inst))
                   (i %% rn_width inst) j.

Lemma resnet_line_matrix_at inst th v samples t :
  map_mx (horner_eval t) (resnet_line_matrix inst th v samples)
  = resnet_jacobian_at inst (on_line th v t) samples.
Proof.
  apply/matrixP => i j. rewrite !mxE horner_evalE /resnet_line_entry coef1_at nth_ev.
  rewrite (@resnet_forward_map _ _ [rmorphism of map_poly (horner_eval t)]) theta_plane_at.
  rewrite !List.map_map /resnet_jac_entry_at. congr (_^`().[0]). congr (List.nth _ _ _).
  congr (resnet_forward _ _ _ _ _ _).
  - apply: List.map_ext => cs. rewrite List.map_map. apply: List.map_ext => c. exact: ev_const.
  - apply: List.map_ext => z. exact: ev_const.
Qed.

(** * The generic step, from the kernel's check *)

(** The shared step: a family's Jacobian [J t] at the points [theta + t v] is the matrix of
    polynomials [E] evaluated at [t], and [J 0] has an invertible [r x r] minor. *)
Lemma rank_lower_on_line m n r (J : rat -> 'M[rat]_(m, n)) (E : 'M[{poly rat}]_(m, n)) :
  (forall t, map_mx (horner_eval t) E = J t) -> unit_minor r (J 0) ->
  exists N : nat, forall ts : seq rat, uniq ts ->
    all (fun t => (\rank (J t) < r)%N) ts -> (size ts <= N)%N.
Proof.
  move=> HE U. have [|N HN] := @rank_line _ _ r E; first by rewrite HE.
  exists N => ts Uts Hts. apply: HN => //.
  apply/allP => t Ht. rewrite HE. exact: (allP Hts t Ht).
Qed.

(** [check_rank_lower = true] and [p] prime: for every direction [v] (padded with zeros), the
    Jacobian of [theta -> (f_theta(x_s))_s] has rank at least [r] at every point
    [theta + t v] of the line but at most [N] of them. *)
Theorem mlp_rank_lower_on_lines inst w r :
  check_rank_lower inst w r = true -> prime_ok (lw_p w) = true ->
  forall v : list rat, exists N : nat, forall ts : seq rat, uniq ts ->
    all (fun t => (\rank (mlp_jacobian_at inst (on_line (List.map q_of (theta inst)) v t)
                                          (lw_samples w)) < r)%N) ts ->
    (size ts <= N)%N.
Proof.
  move=> Hc Hpr v. apply: rank_lower_on_line => [t|]; first exact: mlp_line_matrix_at.
  rewrite on_line0 mlp_jacobian_at_theta. exact: (mlp_unit_minor_sound _ _ _ Hc Hpr).
Qed.

(** The same for a ResNet. *)
Theorem resnet_rank_lower_on_lines inst w r :
  check_rank_lower_resnet inst w r = true -> prime_ok (lw_p w) = true ->
  forall v : list rat, exists N : nat, forall ts : seq rat, uniq ts ->
    all (fun t => (\rank (resnet_jacobian_at inst (on_line (List.map q_of (rn_theta inst)) v t)
                                             (lw_samples w)) < r)%N) ts ->
    (size ts <= N)%N.
Proof.
  move=> Hc Hpr v. apply: rank_lower_on_line => [t|]; first exact: resnet_line_matrix_at.
  rewrite on_line0 resnet_jacobian_at_theta. exact: (resnet_unit_minor_sound _ _ _ Hc Hpr).
Qed.
