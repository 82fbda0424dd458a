(** Reverse mode computes derivatives, for ResNets (MathComp 1.15): over any commutative ring
    [R], entry [j] of the kernel's reverse-mode row [resnet_row] (ResNet.v) of output [k] is
    the coefficient of [t] of [F_(theta + t e_j)(x)[k]], the ResNet evaluated over [{poly R}]
    ([resnet_forward], Jacobian.v) at the parameters [line th 0 j] (Backprop.v).
    At [R = rat] this is RankMeaning.v's [resnet_jac_entry] ([resnet_jac_entry_shape]).
    The proof is the adjoint identity of one reverse pass: for polynomial parameters [TH] and a
    polynomial input [H], writing [P_0], [P_1] for the coefficients of [1] and [t],
      [F(TH, H)[k]_1 = g_theta . TH_1 + g_h . H_1],
    where [(g_theta, g_h) = resnet_back (TH_0) (H_0) k] is the reverse pass at the constant
    coefficients; it follows layer by layer from [(P Q)_1 = P_0 Q_1 + P_1 Q_0],
    [sigma(P)_1 = sigma'(P_0) P_1] and the transposition identities
    [g . (W x) = (W^T g) . x = (g (x) x) . W]. *)
From Coq Require Import ZArith List Bool Lia.
From NNCert Require Import Lists Arith Net RankCore Rank ResNet ReLU Jacobian RankMeaning Backprop.
Set Warnings "-notation-overridden,-ambiguous-paths".
From mathcomp Require Import ssreflect ssrfun ssrbool eqtype ssrnat seq choice fintype finfun.
From mathcomp Require Import bigop ssralg poly rat.
Import GRing.Theory.
Local Open Scope ring_scope.

(** [lia] on goals stated with MathComp's [addn], [muln], [subn]. *)
Local Ltac rn_lia :=
  repeat match goal with H : is_true (leq _ _) |- _ => apply (elimT leP) in H end;
  try match goal with |- is_true (leq _ _) => apply/leP end; unfold addn, muln, subn, addn_rec, muln_rec, subn_rec in *; lia.

(** * Lists *)

Section Lists.
Context {A : Type}.

Lemma rn_drop_n_nil m : drop_n m (@nil A) = nil.
Proof. by case: m. Qed.

(** [drop (a + b) = drop b o drop a]. *)
Lemma rn_drop_n_add a b (xs : list A) : drop_n (a + b)%coq_nat xs = drop_n b (drop_n a xs).
Proof. by elim: a xs => [| a IH] [| x xs] //=; rewrite rn_drop_n_nil. Qed.

(** Backprop.v's [length_take_n] and [length_drop_n] in MathComp's arithmetic. *)
Lemma rn_length_take_n m (xs : list A) : (m <= length xs)%N -> length (take_n m xs) = m.
Proof. move=> H. rewrite length_take_n. rn_lia. Qed.

Lemma rn_length_drop_n m (xs : list A) : length (drop_n m xs) = (length xs - m)%N.
Proof. exact: length_drop_n. Qed.

End Lists.

(** * Dot products over a commutative ring *)

Section Dot.
Context {R : comRingType}.
Local Notation ar := (arith_ring R).


Lemma rn_dot_take_l (a x : list R) : dot ar (take_n (length x) a) x = dot ar a x.
Proof. by rewrite dotC dot_take_n_r // dotC. Qed.








(** [back_rows] keeps the length [r] of its accumulator when every row is complete. *)
Lemma rn_length_back_rows r (g th acc : list R) : length acc = r ->
  (length g * r <= length th)%N -> length (back_rows ar r g th acc) = r.
Proof.
  elim: g th acc => [| y g IH] th acc //= Hacc Hth.
  have Ht : length (take_n r th) = r by apply: rn_length_take_n; rn_lia.
  apply: IH; first by rewrite length_add_scaled_row Ht Hacc Nat.min_id.
  rewrite rn_length_drop_n. rn_lia.
Qed.

(** Transposition: [back_rows r g W acc . x = acc . x + g . (W x)] ([W] of [d >= |g|] rows of
    [r] entries, [W x] = [layer_vals]): reverse mode computes [W^T g]. *)
Lemma rn_dot_back_rows r d (g th acc x : list R) : length acc = r -> (length g <= d)%N ->
  (length g * r <= length th)%N ->
  dot ar (back_rows ar r g th acc) x = dot ar acc x + dot ar g (layer_vals ar r d th x).
Proof.
  elim: g d th acc => [| y g IH] d th acc /= Hacc Hd Hth; first by rewrite addr0.
  case: d Hd => [| d] // Hd /=.
  have Ht : length (take_n r th) = r by apply: rn_length_take_n; rn_lia.
  rewrite (IH d) //; last by rewrite rn_length_drop_n; rn_lia.
  - by rewrite dot_add_scaled_row ?Ht // addrA [_ + dot _ acc _]addrC.
  - by rewrite length_add_scaled_row Ht Hacc Nat.min_id.
Qed.

(** [g . (W x) = (W^T g) . x]. *)
Lemma rn_dot_layer_vals_T r d (g th x : list R) : (length g <= d)%N ->
  (length g * r <= length th)%N ->
  dot ar g (layer_vals ar r d th x) = dot ar (back_rows ar r g th (zeros ar r)) x.
Proof.
  move=> Hd Hth. by rewrite (rn_dot_back_rows r d) ?length_zeros // dot_zeros_l add0r.
Qed.

(** [(g (x) x) . W = g . (W x)] for [x] of length [r]: [scale_each] is the gradient of the
    weights of a layer. *)
Lemma rn_dot_scale_each r d (g x th : list R) : length x = r -> (length g <= d)%N ->
  dot ar (scale_each ar g x) th = dot ar g (layer_vals ar r d th x).
Proof.
  move=> Hx. elim: g d th => [| y g IH] [| d] th //= Hd.
  rewrite dot_app map_length Hx (IH d) // dot_scale.
  by rewrite -Hx rn_dot_take_l [dot _ th x]dotC.
Qed.

(** Rearranging the five terms of the adjoint identity of a layer with [V]. *)
Lemma rn_sum5 (g a b c d : R) : g + (a + (b + c + d)) = c + d + g + (a + b).
Proof. by rewrite [g + _]addrC -!addrA addrA addrC -!addrA. Qed.

(** Rearranging the four terms of the adjoint identity of a layer without [V]. *)
Lemma rn_sum4 (g a b c : R) : g + (a + (b + c)) = c + g + (a + b).
Proof. by rewrite -!addrA (addrA a) (addrC (a + b)) addrCA. Qed.

End Dot.

(** * Coefficients of [1] and [t] *)

Section Coefs.
Context {R : comRingType}.
Local Notation ar := (arith_ring R).
Local Notation arP := (arith_ring _ : arith {poly R}).


(** [g . (W x)_1 = g . (W_0 x_1) + g . (W_1 x_0)]. *)
Lemma rn_dot_cf1_layer_vals rowlen d (g : list R) (th hb : list {poly R}) :
  dot ar g (coefs 1 (layer_vals arP rowlen d th hb)) =
  dot ar g (layer_vals ar rowlen d (coefs 0 th) (coefs 1 hb)) +
  dot ar g (layer_vals ar rowlen d (coefs 1 th) (coefs 0 hb)).
Proof.
  elim: d g th => [| d IH] [| y g] th //=; rewrite ?addr0 //.
  rewrite IH dot_c1 !coefs_take !coefs_drop.
  by rewrite (addrC (dot _ (take_n _ (coefs 1 th)) _)) mulrDr addrACA.
Qed.


(** [g . sigma(p)_1 = (sigma'(p_0) * g) . p_1] (chain rule, entrywise). *)
Lemma rn_dot_cf1_horner_map (cs : list R) (g : list R) (ps : list {poly R}) :
  dot ar g (coefs 1 (List.map (horner_val arP (List.map polyC cs)) ps)) =
  dot ar (hadamard ar (List.map (fun a => snd (horner_dual ar cs a 1)) (coefs 0 ps)) g)
    (coefs 1 ps).
Proof. by rewrite coefs_horner1 -dot_hadamard act_vd_eq. Qed.

Lemma rn_cf0_vadd (a b : list {poly R}) :
  coefs 0 (vadd arP a b) = vec_add ar (coefs 0 a) (coefs 0 b).
Proof. by rewrite vadd_vec_add coefs_vec_add. Qed.

Lemma rn_dot_cf1_vadd (g : list R) (a b : list {poly R}) : length a = length b ->
  dot ar g (coefs 1 (vadd arP a b)) = dot ar g (coefs 1 a) + dot ar g (coefs 1 b).
Proof.
  move=> H. rewrite vadd_vec_add coefs_vec_add dotC dot_vec_add ?length_coefs //.
  by rewrite !(dotC _ g).
Qed.

Lemma rn_cf_app_one (h : list {poly R}) :
  coefs 0 (h ++ [:: 1])%list = (coefs 0 h ++ [:: 1])%list /\
  coefs 1 (h ++ [:: 1])%list = (coefs 1 h ++ [:: 0])%list.
Proof. exact: (conj (coefs_with_bias0 true h) (coefs_with_bias1 true h)). Qed.


End Coefs.

(** * The reverse pass *)

Section Back.
Context {R : comRingType}.
Local Notation ar := (arith_ring R).
Local Notation arP := (arith_ring _ : arith {poly R}).

(** The reverse pass over [h] of length [n] and [th] of [#layers * layer_size] parameters
    returns a gradient of [th] of its length and a gradient of [h] of length [n]. *)
Lemma rn_back_len n outer (acts : list (list R)) k : forall (th h : list R),
  length th = (length acts * layer_size n outer)%N -> length h = n ->
  length (fst (resnet_back ar n outer acts th h k)) = length th /\
  length (snd (resnet_back ar n outer acts th h k)) = n.
Proof.
  elim: acts => [| cs acts IH] th h Hth Hh; first by rewrite /= length_unit_vec.
  have HS : (layer_size n outer <= length th)%N by rewrite Hth /= mulSn leq_addr.
  cbn [resnet_back]. rewrite act_vd_eq. cbv beta iota zeta.
  set B := resnet_back ar n outer acts _ _ k.
  have [L1 L2] : length B.1 = length (drop_n (layer_size n outer) th) /\ length B.2 = n.
    rewrite /B; apply: (IH).
    - by rewrite rn_length_drop_n Hth /= mulSn addKn.
    - rewrite length_vec_add Hh. case: outer {B HS Hth IH} => /=;
        by rewrite ?map_length length_layer_vals Nat.min_id.
  case: B L1 L2 => [grest gh] /= L1 L2. clear IH.
  rewrite /layer_size in HS L1. rewrite rn_length_drop_n in L1.
  have Lhb : length (h ++ [:: 1])%list = (n + 1)%coq_nat by rewrite app_length Hh.
  case: outer HS Hth L1 => /= HS Hth L1.
  - set gv := take_n n _.
    set gpre := hadamard ar _ gv.
    have Lgv : length gv = n.
      apply: rn_length_take_n.
      rewrite rn_length_back_rows ?length_zeros ?L2 ?rn_length_drop_n //. rn_lia.
    have Lgp : length gpre = n.
      by rewrite length_hadamard map_length length_layer_vals Lgv Nat.min_id.
    have LBR : length (back_rows ar (n + 1)%coq_nat gpre th (zeros ar (n + 1)%coq_nat)) =
        (n + 1)%coq_nat.
      apply: rn_length_back_rows; rewrite ?length_zeros ?Lgp //. rn_lia.
    split.
    + rewrite !app_length L1 !length_scale_each Lgp Lhb map_length length_layer_vals L2.
      rn_lia.
    + rewrite length_vec_add L2 rn_length_take_n ?LBR ?Nat.min_id //. rn_lia.
  - set gpre := hadamard ar _ gh.
    have Lgp : length gpre = n.
      by rewrite length_hadamard map_length length_layer_vals L2 Nat.min_id.
    have LBR : length (back_rows ar (n + 1)%coq_nat gpre th (zeros ar (n + 1)%coq_nat)) =
        (n + 1)%coq_nat.
      apply: rn_length_back_rows; rewrite ?length_zeros ?Lgp //. rn_lia.
    split.
    + rewrite !app_length L1 !length_scale_each Lgp Lhb. rn_lia.
    + rewrite length_vec_add L2 rn_length_take_n ?LBR ?Nat.min_id //. rn_lia.
Qed.

(** The adjoint identity of one reverse pass: for polynomial parameters [TH] and input [H]
    with [|TH| = #layers * layer_size] and [|H| = n], writing [P_i] for the coefficients of
    [t^i], [F(TH, H)[k]_1 = g_theta . TH_1 + g_h . H_1] where
    [(g_theta, g_h) = resnet_back TH_0 H_0 k] (the network's activations have constant
    coefficients). *)
Lemma rn_adjoint n outer (acts : list (list R)) k : forall (TH H : list {poly R}),
  length TH = (length acts * layer_size n outer)%N -> length H = n ->
  (List.nth k (resnet_forward arP n outer (List.map (List.map polyC) acts) TH H) 0)`_1 =
  dot ar (resnet_back ar n outer acts (coefs 0 TH) (coefs 0 H) k).1 (coefs 1 TH) +
  dot ar (resnet_back ar n outer acts (coefs 0 TH) (coefs 0 H) k).2 (coefs 1 H).
Proof.
  elim: acts => [| cs acts IH] TH H HTH HH.
    by rewrite /= add0r dot_unit_vec ?length_coefs // nth_coefs.
  have HS : (layer_size n outer <= length TH)%N by rewrite HTH /= mulSn leq_addr.
  have HTH' : length (drop_n (layer_size n outer) TH) = (length acts * layer_size n outer)%N.
    by rewrite rn_length_drop_n HTH /= mulSn addKn.
  have Lpre : length (layer_vals arP (n + 1)%coq_nat n TH (H ++ [:: 1])%list) = n.
    exact: length_layer_vals.
  have LT0 : length (coefs 0 TH) = length TH by exact: length_coefs.
  have LT1 : length (coefs 1 TH) = length TH by exact: length_coefs.
  have LH0 : length (coefs 0 H) = n by rewrite length_coefs.
  have LH1 : length (coefs 1 H) = n by rewrite length_coefs.
  case: outer HS HTH HTH' IH => HS HTH HTH' IH.
  - (* With [V]: [h' = h + V sigma(W [h; 1])]. The induction hypothesis on the remaining
       layers, whose reverse pass at the constant coefficients is the kernel's. *)
    cbn [resnet_back resnet_forward List.map one arith_ring]. rewrite act_vd_eq. cbv beta iota zeta.
    have E : layer_size n true = Nat.add (Nat.mul n (Nat.add n 1)) (Nat.mul n n) by [].
    rewrite E rn_drop_n_add in HTH'. rewrite E in HS.
    rewrite IH; [| exact: HTH' |
      by rewrite vadd_vec_add length_vec_add length_layer_vals HH Nat.min_id].
    rewrite E rn_drop_n_add rn_cf0_vadd layer_vals_c0 coefs_horner0 layer_vals_c0.
    rewrite !coefs_drop (rn_cf_app_one H).1.
    set B := resnet_back ar n true acts _ _ k.
    have [L1 L2] : length B.1 = length (drop_n (n * n)%coq_nat
        (drop_n (n * (n + 1)%coq_nat)%coq_nat (coefs 0 TH))) /\ length B.2 = n.
      apply: rn_back_len; first by rewrite !rn_length_drop_n LT0 -!rn_length_drop_n.
      by rewrite length_vec_add length_layer_vals LH0 Nat.min_id.
    case: B L1 L2 => [grest gh] /= L1 L2.
    have Lthv : length (drop_n (n * (n + 1)%coq_nat)%coq_nat (coefs 0 TH)) =
        (length TH - n * (n + 1)%coq_nat)%N by rewrite rn_length_drop_n LT0.
    (* [g_h . h'_1 = g_h . h_1 + g_h . (V_0 v_1) + g_h . (V_1 v_0)], and
       [g_h . (V_0 v_1) = (V_0^T g_h) . v_1 = g_v . v_1]. *)
    rewrite rn_dot_cf1_vadd; last by rewrite length_layer_vals.
    rewrite rn_dot_cf1_layer_vals !coefs_drop coefs_horner0 layer_vals_c0.
    rewrite (rn_cf_app_one H).1.
    rewrite [dot _ gh (layer_vals _ n n (drop_n _ (coefs 0 TH)) _)]rn_dot_layer_vals_T; first last.
    - rewrite Lthv L2. rn_lia.
    - by rewrite L2.
    rewrite -(rn_dot_take_l (back_rows _ _ _ _ _) (coefs 1 _)) length_coefs map_length Lpre.
    (* Chain rule: [g_v . sigma(pre)_1 = (sigma'(pre_0) * g_v) . pre_1 = g_pre . pre_1], and
       [pre_1 = W_0 [h_1; 0] + W_1 [h_0; 1]]. *)
    rewrite rn_dot_cf1_horner_map layer_vals_c0 (rn_cf_app_one H).1.
    rewrite rn_dot_cf1_layer_vals (rn_cf_app_one H).1 (rn_cf_app_one H).2.
    set T0 := coefs 0 TH. set T1 := coefs 1 TH. set H0 := coefs 0 H. set H1 := coefs 1 H.
    set pre := layer_vals ar (n + 1)%coq_nat n T0 (H0 ++ [:: 1])%list.
    set gv := take_n n (back_rows ar n gh _ (zeros ar n)).
    set gpre := hadamard ar _ gv.
    have Lgv : length gv = n.
      apply: rn_length_take_n. rewrite rn_length_back_rows ?length_zeros ?L2 //.
      rewrite Lthv. rn_lia.
    have Lgp : length gpre = n.
      by rewrite length_hadamard map_length length_layer_vals Lgv Nat.min_id.
    have Lhb : length (H0 ++ [:: 1])%list = (n + 1)%coq_nat by rewrite app_length LH0.
    have LBR : length (back_rows ar (n + 1)%coq_nat gpre T0 (zeros ar (n + 1)%coq_nat)) =
        (n + 1)%coq_nat.
      apply: rn_length_back_rows; rewrite ?length_zeros ?Lgp ?LT0 //; rn_lia.
    (* [g_pre . (W_0 [h_1; 0]) = (W_0^T g_pre)[..n] . h_1]; the weight terms are
       [(g_pre (x) [h_0; 1]) . W_1] and [(g_h (x) v_0) . V_1]. *)
    rewrite [dot _ gpre (layer_vals _ _ n T0 _)]rn_dot_layer_vals_T;
      [| by rewrite Lgp | rewrite Lgp LT0; rn_lia].
    rewrite (dot_with_bias0 true) LH1.
    rewrite -(@rn_dot_scale_each _ (n + 1)%coq_nat n gpre) //; try by rewrite Lgp.
    rewrite -(@rn_dot_scale_each _ n n gh) //; try by rewrite ?L2 ?map_length ?length_layer_vals.
    (* The kernel's gradients: [(g_W ++ g_V) ++ g_rest] and [g_h + (W_0^T g_pre)[..n]]. *)
    rewrite !dot_app dot_vec_add; last by rewrite L2 rn_length_take_n ?LBR //; rn_lia.
    rewrite !length_scale_each Lhb app_length !length_scale_each Lhb Lgp L2 map_length.
    rewrite length_layer_vals.
    rewrite rn_drop_n_add. exact: rn_sum5.
  - (* Without [V]: [h' = h + sigma(W [h; 1])], the same steps. *)
    cbn [resnet_back resnet_forward List.map one arith_ring]. rewrite act_vd_eq. cbv beta iota zeta.
    have E0 : layer_size n false = Nat.add (Nat.mul n (Nat.add n 1)) 0 by [].
    rewrite E0 Nat.add_0_r in HS.
    rewrite IH; [| by rewrite E0 Nat.add_0_r in HTH' * |
      by rewrite vadd_vec_add length_vec_add map_length length_layer_vals HH Nat.min_id].
    rewrite E0 Nat.add_0_r rn_cf0_vadd coefs_horner0 layer_vals_c0.
    rewrite !coefs_drop (rn_cf_app_one H).1.
    set B := resnet_back ar n false acts _ _ k.
    have [L1 L2] : length B.1 = length (drop_n (n * (n + 1)%coq_nat)%coq_nat (coefs 0 TH)) /\
        length B.2 = n.
      apply: rn_back_len; last first.
        by rewrite length_vec_add LH0 map_length length_layer_vals Nat.min_id.
      rewrite !rn_length_drop_n LT0 -!rn_length_drop_n. by rewrite E0 Nat.add_0_r in HTH' *.
    case: B L1 L2 => [grest gh] /= L1 L2.
    rewrite rn_dot_cf1_vadd; last by rewrite map_length length_layer_vals HH.
    rewrite rn_dot_cf1_horner_map layer_vals_c0 (rn_cf_app_one H).1.
    rewrite rn_dot_cf1_layer_vals (rn_cf_app_one H).1 (rn_cf_app_one H).2.
    set T0 := coefs 0 TH. set T1 := coefs 1 TH. set H0 := coefs 0 H. set H1 := coefs 1 H.
    set gpre := hadamard ar _ gh.
    have Lgp : length gpre = n.
      by rewrite length_hadamard map_length length_layer_vals L2 Nat.min_id.
    have Lhb : length (H0 ++ [:: 1])%list = (n + 1)%coq_nat by rewrite app_length LH0.
    have LBR : length (back_rows ar (n + 1)%coq_nat gpre T0 (zeros ar (n + 1)%coq_nat)) =
        (n + 1)%coq_nat.
      apply: rn_length_back_rows; rewrite ?length_zeros ?Lgp ?LT0 //; rn_lia.
    rewrite [dot _ gpre (layer_vals _ _ n T0 _)]rn_dot_layer_vals_T;
      [| by rewrite Lgp | rewrite Lgp LT0; rn_lia].
    rewrite (dot_with_bias0 true) LH1.
    rewrite -(@rn_dot_scale_each _ (n + 1)%coq_nat n gpre) //; try by rewrite Lgp.
    rewrite !dot_app dot_vec_add; last by rewrite L2 rn_length_take_n ?LBR //; rn_lia.
    rewrite !length_scale_each Lhb Lgp. exact: rn_sum4.
Qed.

End Back.

(** * Reverse mode computes derivatives (ResNets) *)

Section ResNetBackprop.
Context {R : comRingType}.
Local Notation ar := (arith_ring R).
Local Notation arP := (arith_ring _ : arith {poly R}).

(** Reverse mode computes derivatives (ResNet): entry [j] of the kernel's row
    [resnet_row ... th x k] is [d F_theta(x)[k] / d theta_j], the coefficient of [t] of the
    ResNet evaluated over [{poly R}] at [theta + t e_j] ([line th 0 j]) and the constant input
    [x]. The hypotheses follow from the kernel's [resnet_shape_ok] ([length acts * layer_size]
    is [resnet_params] of the instance's activations); no bound on [k] or [j] is needed (both
    sides are [0] past the end). *)
Theorem resnet_backprop n outer (acts : list (list R)) (th x : list R) k j :
  length th = (length acts * layer_size n outer)%N -> length x = n ->
  List.nth j (resnet_row ar n outer acts th x k) 0 =
  (List.nth k (resnet_forward arP n outer (List.map (List.map polyC) acts) (line th 0 j)
                 (List.map polyC x)) 0)`_1.
Proof.
  move=> Hth Hx.
  rewrite rn_adjoint ?map_length ?length_line // coefs0_line coefs0_polyC.
  rewrite coefs1_polyC dot_zeros_r addr0 /resnet_row dot_line ?Nat.sub_0_r //; last lia.
  by case: (rn_back_len n outer acts k th x Hth Hx).
Qed.

(** [resnet_backprop] under the hypothesis of the kernel's [resnet_shape_ok] on an instance
    with activations [acts0] (one per layer, as [acts]): [length th = resnet_params]. *)
Corollary resnet_backprop_params n outer (acts0 : list (list (Z * Z))) (acts : list (list R))
    (th x : list R) k j :
  length acts = length acts0 -> length th = resnet_params n acts0 outer -> length x = n ->
  List.nth j (resnet_row ar n outer acts th x k) 0 =
  (List.nth k (resnet_forward arP n outer (List.map (List.map polyC) acts) (line th 0 j)
                 (List.map polyC x)) 0)`_1.
Proof. move=> Ha Hth. apply: resnet_backprop. by rewrite Hth /resnet_params Ha. Qed.

End ResNetBackprop.

(** * The Jacobian entry of RankMeaning.v is entry [j] of the kernel's reverse-mode row *)

(** The constant polynomials of rational activations and of an integer input, as [polyC] of
    their images in Q. *)
Lemma acts_polyC (acts : list (list (Z * Z))) :
  List.map (List.map (fun c => (q_of c)%:P)) acts =
  List.map (List.map polyC) (List.map (List.map q_of) acts).
Proof. by rewrite List.map_map; apply: List.map_ext => a; rewrite List.map_map. Qed.

Lemma ints_polyC (x : list Z) :
  List.map (fun z => (zr z)%:P) x = List.map polyC (List.map zr x) :> list {poly rat}.
Proof. by rewrite List.map_map. Qed.

(** [d F_theta(x)[k] / d theta_j] of RankMeaning.v ([resnet_jac_entry], defined by the
    ResNet over [{poly rat}]) is entry [j] of [resnet_row] over [Q] at the instance (the
    rationals [q_of theta], [q_of] of the activations, the integers [x]). *)
Corollary resnet_jac_entry_row inst x k j :
  length (rn_theta inst) = resnet_params (rn_width inst) (rn_acts inst) (rn_outer inst) ->
  length x = rn_width inst ->
  resnet_jac_entry inst x k j =
  List.nth j (resnet_row (arith_ring _ : arith rat) (rn_width inst) (rn_outer inst)
                (List.map (List.map q_of) (rn_acts inst)) (List.map q_of (rn_theta inst))
                (List.map zr x) k) 0.
Proof.
  move=> Hth Hx. rewrite (@resnet_backprop_params _ _ _ (rn_acts inst)) ?map_length //.
  rewrite /resnet_jac_entry deriv_at0 theta_line_line.
  by rewrite acts_polyC ints_polyC.
Qed.

(** The same at every sample of a well-formed instance ([resnet_shape_ok]). *)
Corollary resnet_jac_entry_shape inst samples s k j :
  resnet_shape_ok inst samples = true -> (s < length samples)%N ->
  resnet_jac_entry inst (nth_row samples s) k j =
  List.nth j (resnet_row (arith_ring _ : arith rat) (rn_width inst) (rn_outer inst)
                (List.map (List.map q_of) (rn_acts inst)) (List.map q_of (rn_theta inst))
                (List.map zr (nth_row samples s)) k) 0.
Proof.
  rewrite /resnet_shape_ok => /andP [/andP [_ /Nat.eqb_eq Hth] Hrows] Hs.
  apply: resnet_jac_entry_row => //. exact: rows_len_nth.
Qed.
