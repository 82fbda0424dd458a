(** Reverse mode computes derivatives (MathComp 1.15): over any commutative ring [R], entry [j]
    of the kernel's reverse-mode row [d f(x)[k] / d theta] (Net.v, ReLU.v) is the coefficient of
    [t] of the network evaluated over [{poly R}] at the parameters [theta + t e_j] ([line]).
    Instantiated at [R = rat] this is the Jacobian entry of RankMeaning.v.
    Main theorems: [mlp_backprop] (Net.v [net_row]) and [relu_backprop] (ReLU.v [relu_back],
    the activation pattern fixed). Proof: the adjoint identity, by induction on the layers. For
    polynomial parameters [TH] and inputs [H], with [(g_th, g_h)] the reverse-mode gradients at
    the constant coefficients [TH(0)], [H(0)],
    [f_k(TH, H)'(0) = g_th . TH'(0) + g_h . H'(0)] ([mlp_adjoint], [relu_adjoint]); at
    [TH = theta + t e_j] and constant [H = x] the right side is [g_th[j]]. The blocks: Leibniz
    for [dot] ([dot_c1]), the chain rule for [horner_val] ([horner_val_c1]), the one-layer
    identity [g . (W hb)' = (g (x) hb) . W' + (W^T g) . hb'] ([layer_adjoint], [layer_back]),
    and the entrywise products [hadamard] / ReLU masks as diagonal matrices. No axioms. *)
From Coq Require Import ZArith List Bool Lia.
From NNCert Require Import Lists Arith Net RankCore Rank ResNet ReLU Jacobian RankMeaning.
Set Warnings "-notation-overridden,-ambiguous-paths".
From mathcomp Require Import ssreflect ssrfun ssrbool eqtype ssrnat seq choice fintype finfun.
From mathcomp Require Import bigop ssralg poly rat.
Import GRing.Theory.
Local Open Scope ring_scope.

Section Line.
Variable R : ringType.

(** The parameters [th + t e_j] as polynomials in [t] ([i]: the index of the head). *)
Fixpoint line (th : list R) (i j : nat) : list {poly R} :=
  match th with
  | nil => nil
  | v :: th' => (v%:P + (if Nat.eqb i j then 'X else 0)) :: line th' i.+1 j
  end.

End Line.
Arguments line {R} th i j.

(** * Lengths of the kernel's list operations (any arithmetic) *)

Section Lengths.
Context {A : Type} (ar : arith A).

Lemma length_take_n {B : Type} n (xs : list B) : length (take_n n xs) = Nat.min n (length xs).
Proof. by elim: n xs => [|n IH] [|x xs] //=; rewrite IH. Qed.

Lemma length_drop_n {B : Type} n (xs : list B) : length (drop_n n xs) = (length xs - n)%coq_nat.
Proof. by elim: n xs => [|n IH] [|x xs] //=; rewrite ?IH // Nat.sub_0_r. Qed.

Lemma length_with_bias b (h : list A) v :
  length (with_bias b h v) = (length h + (if b then 1%N else 0%N))%coq_nat.
Proof. by case: b; rewrite /with_bias ?app_length // Nat.add_0_r. Qed.

Lemma length_layer_vals rowlen d (th hb : list A) : length (layer_vals ar rowlen d th hb) = d.
Proof. by elim: d th => [|d IH] th //=; rewrite IH. Qed.

Lemma length_scale_each (g hb : list A) :
  length (scale_each ar g hb) = (length g * length hb)%coq_nat.
Proof. by elim: g => [|gi g IH] //=; rewrite app_length map_length IH. Qed.

Lemma length_add_scaled_row z (r acc : list A) :
  length (add_scaled_row ar z r acc) = Nat.min (length r) (length acc).
Proof. by elim: r acc => [|x r IH] [|y acc] //=; rewrite IH. Qed.

(** [W^T g] has one entry per column when [th] holds a full row for every entry of [g]. *)
Lemma length_back_rows rowlen : forall (g th acc : list A), length acc = rowlen ->
  (Nat.mul (length g) rowlen <= length th)%coq_nat -> length (back_rows ar rowlen g th acc) = rowlen.
Proof.
  elim=> [|gi g IH] th acc Hacc Hth //=. simpl in Hth.
  apply: IH; rewrite ?length_add_scaled_row ?length_take_n ?length_drop_n; lia.
Qed.

Lemma length_hadamard (xs ys : list A) :
  length (hadamard ar xs ys) = Nat.min (length xs) (length ys).
Proof. by elim: xs ys => [|x xs IH] [|y ys] //=; rewrite IH. Qed.

Lemma length_zeros n : length (zeros ar n) = n.
Proof. by elim: n => [|n IH] //=; rewrite IH. Qed.

Lemma length_unit_vec n c : length (unit_vec ar n c) = n.
Proof. by elim: n c => [|n IH] [|c] //=; rewrite ?length_zeros ?IH. Qed.

Lemma length_mask_vals pat (xs : list A) :
  length (mask_vals ar pat xs) = Nat.min (length pat) (length xs).
Proof. by elim: pat xs => [|b pat IH] [|x xs] //=; rewrite IH. Qed.

(** [act_vd cs hs] is one pair [(sigma(h), sigma'(h))] per entry [h] of [hs]. *)
Lemma length_act_vd cs (hs : list A) :
  length (fst (act_vd ar cs hs)) = length hs /\ length (snd (act_vd ar cs hs)) = length hs.
Proof.
  have [H1 H2] := act_dual_spec ar cs hs (List.map (fun _ => one ar) hs) (esym (map_length _ _)).
  by rewrite /act_vd H1 map_length H2.
Qed.

End Lengths.

(** * Coefficients 0 and 1 of polynomial expressions, and the kernel's linear algebra over [R] *)

Section Blocks.
Context {R : comRingType}.
Local Notation ar := (arith_ring R).
Local Notation arP := (arith_ring _ : arith {poly R}).

(** Coefficient [i] of every polynomial of the list: [coefs 0] is the value at [t = 0],
    [coefs 1] the derivative at [t = 0]. *)
Definition coefs (i : nat) (Ps : list {poly R}) : list R := List.map (fun P : {poly R} => P`_i) Ps.

Lemma coef0_mul (P Q : {poly R}) : (P * Q)`_0 = P`_0 * Q`_0.
Proof. by rewrite coefM big_ord_recl big_ord0 addr0. Qed.

(** Leibniz: [(P Q)'(0) = P(0) Q'(0) + P'(0) Q(0)]. *)
Lemma coef1_mul (P Q : {poly R}) : (P * Q)`_1 = P`_0 * Q`_1 + P`_1 * Q`_0.
Proof. by rewrite coefM !big_ord_recl big_ord0 addr0. Qed.

Lemma length_coefs i Ps : length (coefs i Ps) = length Ps.
Proof. exact: map_length. Qed.

Lemma map_take_n {B C : Type} (f : B -> C) n xs :
  List.map f (take_n n xs) = take_n n (List.map f xs).
Proof. by elim: n xs => [|n IH] [|x xs] //=; rewrite IH. Qed.

Lemma map_drop_n {B C : Type} (f : B -> C) n xs :
  List.map f (drop_n n xs) = drop_n n (List.map f xs).
Proof. by elim: n xs => [|n IH] [|x xs] //=. Qed.

Lemma coefs_take i n Ps : coefs i (take_n n Ps) = take_n n (coefs i Ps).
Proof. exact: map_take_n. Qed.

Lemma coefs_drop i n Ps : coefs i (drop_n n Ps) = drop_n n (coefs i Ps).
Proof. exact: map_drop_n. Qed.

(** Entry [k] of the coefficients is the coefficient of entry [k] ([0] past the end). *)
Lemma nth_coefs i k (Ps : list {poly R}) : (List.nth k Ps 0)`_i = List.nth k (coefs i Ps) 0.
Proof. by elim: k Ps => [|k IH] [|P Ps] //=; rewrite coef0. Qed.

Lemma coefs_with_bias0 b H : coefs 0 (with_bias b H (one arP)) = with_bias b (coefs 0 H) (one ar).
Proof. by case: b; rewrite /with_bias /coefs ?map_app //= coefC. Qed.

Lemma coefs_with_bias1 b H : coefs 1 (with_bias b H (one arP)) = with_bias b (coefs 1 H) 0.
Proof. by case: b; rewrite /with_bias /coefs ?map_app //= coefC. Qed.

Lemma coefs0_polyC (x : list R) : coefs 0 (List.map polyC x) = x.
Proof. by elim: x => [|v x IH] //=; rewrite coefC IH. Qed.

Lemma coefs1_polyC (x : list R) : coefs 1 (List.map polyC x) = zeros ar (length x).
Proof. by elim: x => [|v x IH] //=; rewrite coefC IH. Qed.

(** ** The dot product [sum_i xs[i] ys[i]] over the shorter length *)

Lemma nth_zeros n k : List.nth k (zeros ar n) 0 = 0.
Proof. by elim: n k => [|n IH] [|k] //=. Qed.

Lemma dot_nil_r xs : dot ar xs [::] = 0.
Proof. by case: xs. Qed.

(** [(W . X)(0) = W(0) . X(0)]. *)
Lemma dot_c0 Ws Xs : (dot arP Ws Xs)`_0 = dot ar (coefs 0 Ws) (coefs 0 Xs).
Proof.
  elim: Ws Xs => [|W Ws IH] [|X Xs] /=; rewrite ?coef0 //.
  by rewrite coefD coef0_mul IH.
Qed.

(** Leibniz for the dot product: [(W . X)'(0) = W'(0) . X(0) + W(0) . X'(0)]. *)
Lemma dot_c1 Ws Xs :
  (dot arP Ws Xs)`_1 = dot ar (coefs 1 Ws) (coefs 0 Xs) + dot ar (coefs 0 Ws) (coefs 1 Xs).
Proof.
  elim: Ws Xs => [|W Ws IH] [|X Xs] /=; rewrite ?coef0 ?addr0 //.
  by rewrite coefD coef1_mul IH [W`_0 * _ + _]addrC addrACA.
Qed.

Lemma dotC xs ys : dot ar xs ys = dot ar ys xs.
Proof. by elim: xs ys => [|x xs IH] [|y ys] //=; rewrite IH mulrC. Qed.

(** [(xs ++ ys) . zs = xs . zs + ys . (zs without its first |xs| entries)]. *)
Lemma dot_app xs ys zs :
  dot ar (xs ++ ys)%list zs = dot ar xs zs + dot ar ys (drop_n (length xs) zs).
Proof.
  elim: xs zs => [|x xs IH] [|z zs] /=; rewrite ?add0r ?dot_nil_r ?addr0 //.
  by rewrite IH addrA.
Qed.

Lemma dot_take_n_r n xs ys : length xs = n -> dot ar xs (take_n n ys) = dot ar xs ys.
Proof. by elim: xs n ys => [|x xs IH] [|n] [|y ys] //= [Hn]; rewrite IH. Qed.

(** Only the first [|ys|] entries of [xs] meet [ys] (also when [ys] is padded by a zero). *)
Lemma dot_with_bias0 b xs ys : dot ar xs (with_bias b ys 0) = dot ar (take_n (length ys) xs) ys.
Proof.
  case: b; rewrite /with_bias.
  - elim: ys xs => [|y ys IH] [|x xs] //=; [by rewrite mulr0 dot_nil_r addr0| by rewrite IH].
  - by elim: ys xs => [|y ys IH] [|x xs] //=; rewrite IH.
Qed.

Lemma dot_scale c xs ys : dot ar (List.map (fun v => mul ar c v) xs) ys = c * dot ar xs ys.
Proof.
  elim: xs ys => [|x xs IH] [|y ys] /=; rewrite ?mulr0 //.
  by rewrite IH mulrDr mulrA.
Qed.

Lemma dot_zeros_l n ys : dot ar (zeros ar n) ys = 0.
Proof. by elim: n ys => [|n IH] [|y ys] //=; rewrite IH mul0r addr0. Qed.

Lemma dot_zeros_r n xs : dot ar xs (zeros ar n) = 0.
Proof. by rewrite dotC dot_zeros_l. Qed.

(** [e_k . ys = ys[k]] when [e_k] has the length of [ys] ([0] for [k] past the end). *)
Lemma dot_unit_vec n k ys : length ys = n -> dot ar (unit_vec ar n k) ys = List.nth k ys 0.
Proof.
  elim: n k ys => [|n IH] [|k] [|y ys] //= [Hn].
  - by rewrite dot_zeros_l mul1r addr0.
  - by rewrite IH // mul0r add0r.
Qed.

(** [(z r + acc) . ys = z (r . ys) + acc . ys] for [|r| = |acc|]. *)
Lemma dot_add_scaled_row z r acc ys : length r = length acc ->
  dot ar (add_scaled_row ar z r acc) ys = z * dot ar r ys + dot ar acc ys.
Proof.
  elim: r acc ys => [|x r IH] [|a acc] [|y ys] //= Hl; rewrite ?mulr0 ?addr0 //.
  case: Hl => Hl. by rewrite IH // mulrDr !mulrA mulrDl addrACA.
Qed.

(** [(a o b) . c = b . (a o c)] ([o] the entrywise product). *)
Lemma dot_hadamard a b c : dot ar (hadamard ar a b) c = dot ar b (hadamard ar a c).
Proof.
  elim: a b c => [|x a IH] [|y b] [|z c] //=; rewrite ?dot_nil_r //.
  by rewrite IH -mulrA mulrCA mulrA.
Qed.

(** A fixed ReLU pattern is a 0/1 diagonal matrix: [g . (D c) = (D g) . c]. *)
Lemma dot_mask_vals pat g c : dot ar g (mask_vals ar pat c) = dot ar (mask_vals ar pat g) c.
Proof.
  elim: pat g c => [|b pat IH] [|x g] [|z c] //=; rewrite ?dot_nil_r //.
  by case: b; rewrite IH ?mulr0 ?mul0r.
Qed.

Lemma coefs_mask_pat i pat Ps : coefs i (mask_pat arP pat Ps) = mask_vals ar pat (coefs i Ps).
Proof. by elim: pat Ps => [|b pat IH] [|P Ps] //=; rewrite IH; case: b; rewrite ?coef0. Qed.

(** ** One layer: values at [t = 0], and the adjoint identity of its derivative *)

(** The layer's values at [t = 0] are the layer at the coefficients [0]. *)
Lemma layer_vals_c0 rowlen d TH HB :
  coefs 0 (layer_vals arP rowlen d TH HB) = layer_vals ar rowlen d (coefs 0 TH) (coefs 0 HB).
Proof.
  elim: d TH => [|d IH] TH //=.
  by rewrite dot_c0 coefs_take IH coefs_drop.
Qed.

(** The adjoint identity of one layer [pre = W hb]: for a gradient [g] of its [d] outputs and
    any accumulator [acc] of the row length,
    [acc . hb' + g . pre' = (g (x) hb) . W' + (acc + W^T g) . hb'] at [t = 0]
    ([(g (x) hb)] is [scale_each], [acc + W^T g] is [back_rows]). *)
Lemma layer_adjoint rowlen : forall d g TH HB acc,
  length g = d -> length HB = rowlen -> length acc = rowlen ->
  (Nat.mul d rowlen <= length TH)%coq_nat ->
  dot ar acc (coefs 1 HB) + dot ar g (coefs 1 (layer_vals arP rowlen d TH HB)) =
  dot ar (scale_each ar g (coefs 0 HB)) (coefs 1 TH) +
  dot ar (back_rows ar rowlen g (coefs 0 TH) acc) (coefs 1 HB).
Proof.
  elim=> [|d IH] [|gi g] TH HB acc //= Hg Hhb Hacc Hth.
  - by rewrite !addr0 add0r.
  - case: Hg => Hg.
    have Hrow : length (take_n rowlen (coefs 0 TH)) = length acc.
    { rewrite length_take_n length_coefs Hacc. lia. }
    rewrite dot_app map_length length_coefs Hhb -!coefs_drop -addrA -(IH g _ _ _ Hg Hhb);
      last 2 first.
    + by rewrite length_add_scaled_row Hrow Nat.min_id.
    + rewrite length_drop_n. lia.
    rewrite dot_add_scaled_row // dot_scale dot_c1 !coefs_take.
    rewrite [dot ar (take_n rowlen (coefs 1 TH)) _]dotC dot_take_n_r ?length_coefs //.
    rewrite mulrDr !addrA; congr (_ + _).
    by rewrite (addrC (dot ar acc (coefs 1 HB))) addrAC.
Qed.

(** The layer [pre = W (h, 1)] (bias column last when [b]) of an MLP step: its derivative
    paired with a gradient [g] of its [d] outputs is
    [g . pre' = (g (x) (h, 1)) . W' + (W^T g)[0 .. prev) . h'] at [t = 0]. *)
Lemma layer_back prev (b : bool) d g TH H :
  length g = d -> length H = prev ->
  (Nat.mul d (prev + (if b then 1%N else 0%N))%coq_nat <= length TH)%coq_nat ->
  dot ar g (coefs 1 (layer_vals arP (prev + (if b then 1%N else 0%N))%coq_nat d TH
                       (with_bias b H (one arP)))) =
  dot ar (scale_each ar g (with_bias b (coefs 0 H) (one ar))) (coefs 1 TH) +
  dot ar (take_n prev (back_rows ar (prev + (if b then 1%N else 0%N))%coq_nat g (coefs 0 TH)
                         (zeros ar (prev + (if b then 1%N else 0%N))%coq_nat))) (coefs 1 H).
Proof.
  move=> Hg Hh Hth.
  rewrite -[LHS]add0r -(dot_zeros_l (prev + (if b then 1%N else 0%N))%coq_nat
                           (coefs 1 (with_bias b H (one arP)))).
  rewrite layer_adjoint ?length_zeros ?length_with_bias ?Hh //.
  by rewrite coefs_with_bias0 coefs_with_bias1 dot_with_bias0 length_coefs Hh.
Qed.

(** ** Activations: [sigma(P)(0) = sigma(P(0))] and [sigma(P)'(0) = sigma'(P(0)) P'(0)] *)

Lemma horner_val_c0 cs P :
  (horner_val arP (List.map polyC cs) P)`_0 = horner_val ar cs P`_0.
Proof. by elim: cs => [|c cs IH] /=; rewrite ?coef0 // coefD coefC coef0_mul IH. Qed.

(** The chain rule for the activation [sigma = sum_k cs[k] t^k], with
    [sigma'(a) = snd (horner_dual cs a 1)] (Horner on the dual number [a + eps]). *)
Lemma horner_val_c1 cs P :
  (horner_val arP (List.map polyC cs) P)`_1 = snd (horner_dual ar cs P`_0 (one ar)) * P`_1.
Proof.
  elim: cs => [|c cs IH] /=; rewrite ?coef0 ?mul0r //.
  rewrite coefD coefC add0r coef1_mul IH horner_val_c0 -(horner_dual_fst ar cs P`_0 (one ar)).
  case: (horner_dual ar cs P`_0 (one ar)) => s ds /=.
  by rewrite mulrDl mul1r mulrA [P`_1 * s]mulrC.
Qed.

(** [act_vd cs hs = (sigma(hs), sigma'(hs))] entrywise. *)
Lemma act_vd_eq cs hs : act_vd ar cs hs =
  (List.map (horner_val ar cs) hs, List.map (fun a => snd (horner_dual ar cs a (one ar))) hs).
Proof.
  rewrite /act_vd; elim: hs => [|h hs IH] //=.
  rewrite IH -(horner_dual_fst ar cs h (one ar)).
  by case: (horner_dual ar cs h (one ar)).
Qed.

Lemma act_vd_fst cs hs : fst (act_vd ar cs hs) = List.map (horner_val ar cs) hs.
Proof. by rewrite act_vd_eq. Qed.

Lemma coefs_horner0 cs Ps :
  coefs 0 (List.map (horner_val arP (List.map polyC cs)) Ps) =
  List.map (horner_val ar cs) (coefs 0 Ps).
Proof. by elim: Ps => [|P Ps IH] //=; rewrite horner_val_c0 IH. Qed.

(** [sigma(P)'(0) = sigma'(P(0)) o P'(0)] entrywise ([o] the entrywise product). *)
Lemma coefs_horner1 cs Ps :
  coefs 1 (List.map (horner_val arP (List.map polyC cs)) Ps) =
  hadamard ar (snd (act_vd ar cs (coefs 0 Ps))) (coefs 1 Ps).
Proof. by rewrite act_vd_eq; elim: Ps => [|P Ps IH] //=; rewrite horner_val_c1 IH. Qed.

(** ** The line [th + t e_j] *)

Lemma length_line (th : list R) i j : length (line th i j) = length th.
Proof. by elim: th i => [|v th IH] i //=; rewrite IH. Qed.

(** At [t = 0] the line is [th]. *)
Lemma coefs0_line (th : list R) i j : coefs 0 (line th i j) = th.
Proof.
  elim: th i => [|v th IH] i //=.
  by rewrite IH coefD coefC; case: (Nat.eqb i j); rewrite ?coefX ?coef0 addr0.
Qed.

Lemma coefs1_line_gt (th : list R) i j : (j < i)%coq_nat -> coefs 1 (line th i j) = zeros ar (length th).
Proof.
  elim: th i => [|v th IH] i Hi //=.
  have -> : Nat.eqb i j = false by apply/Nat.eqb_neq; lia.
  by rewrite IH; [rewrite coefD coefC coef0 addr0| lia].
Qed.

(** [g . e_j = g[j]] for the direction [e_j] of the line ([i]: the index of the head). *)
Lemma dot_line (th : list R) i j g : length g = length th -> (i <= j)%coq_nat ->
  dot ar g (coefs 1 (line th i j)) = List.nth (j - i)%coq_nat g 0.
Proof.
  elim: th i g => [|v th IH] i [|x g] //= Hl Hij.
  - by case: (j - i)%coq_nat.
  - case: Hl => Hl. rewrite coefD coefC /=.
    case: (Nat.eqb_spec i j) => [<-|Hne].
    + rewrite coefX eqxx /= mulr1n add0r mulr1 coefs1_line_gt; last lia.
      by rewrite dot_zeros_r addr0 Nat.sub_diag.
    + rewrite coef0 addr0 mulr0 add0r IH //; last lia.
      by have -> : (j - i)%coq_nat = S (j - i.+1)%coq_nat by lia.
Qed.

End Blocks.

(** * Multilayer perceptrons *)

(** One unfolding of the kernel's MLP evaluator and reverse mode (any arithmetic). *)
Section Unfold.
Context {A : Type} (ar : arith A).

Lemma mlp_forward_last bias prev d acts (th h : list A) :
  mlp_forward ar bias prev [:: d] acts th h =
  layer_vals ar (prev + (if bias then 1%N else 0%N))%coq_nat d th (with_bias bias h (one ar)).
Proof. by []. Qed.

Lemma mlp_forward_step bias prev d d' rest acts (th h : list A) :
  mlp_forward ar bias prev (d :: d' :: rest) acts th h =
  mlp_forward ar bias d (d' :: rest) (tl acts)
    (drop_n (Nat.mul d (prev + (if bias then 1%N else 0%N))%coq_nat) th)
    (List.map (horner_val ar (hd [::] acts))
       (layer_vals ar (prev + (if bias then 1%N else 0%N))%coq_nat d th
          (with_bias bias h (one ar)))).
Proof. by []. Qed.

Lemma net_back_last bias prev d acts (th h : list A) k :
  net_back ar bias prev [:: d] acts th h k =
  (scale_each ar (unit_vec ar d k) (with_bias bias h (one ar)),
   take_n prev (back_rows ar (prev + (if bias then 1%N else 0%N))%coq_nat (unit_vec ar d k) th
                  (zeros ar (prev + (if bias then 1%N else 0%N))%coq_nat))).
Proof. by []. Qed.

(** A hidden layer: values [v] and slopes [dv] of [sigma] at the pre-activations, the pass
    through the later layers, and the gradient [g = dv o gh] of the pre-activations. *)
Lemma net_back_step bias prev d d' rest acts (th h : list A) k :
  net_back ar bias prev (d :: d' :: rest) acts th h k =
  let rowlen := (prev + (if bias then 1%N else 0%N))%coq_nat in
  let hb := with_bias bias h (one ar) in
  let vd := act_vd ar (hd [::] acts) (layer_vals ar rowlen d th hb) in
  let nb := net_back ar bias d (d' :: rest) (tl acts) (drop_n (Nat.mul d rowlen) th) (fst vd) k in
  let g := hadamard ar (snd vd) (snd nb) in
  ((scale_each ar g hb ++ fst nb)%list, take_n prev (back_rows ar rowlen g th (zeros ar rowlen))).
Proof.
  move E: (d' :: rest) => rs /=. case: rs E => [//|d'' rs'] _. cbv beta iota zeta.
  destruct (act_vd ar (hd [::] acts) (layer_vals ar (prev + (if bias then 1%N else 0%N))%coq_nat
              d th (with_bias bias h (one ar)))) as [v dv].
  cbv beta iota delta [fst snd].
  by destruct (net_back ar bias d (d'' :: rs') (tl acts)
                 (drop_n (Nat.mul d (prev + (if bias then 1%N else 0%N))%coq_nat) th) v k).
Qed.

Lemma net_back_step_fst bias prev d d' rest acts (th h : list A) k :
  fst (net_back ar bias prev (d :: d' :: rest) acts th h k) =
  let rowlen := (prev + (if bias then 1%N else 0%N))%coq_nat in
  let hb := with_bias bias h (one ar) in
  let vd := act_vd ar (hd [::] acts) (layer_vals ar rowlen d th hb) in
  let nb := net_back ar bias d (d' :: rest) (tl acts) (drop_n (Nat.mul d rowlen) th) (fst vd) k in
  (scale_each ar (hadamard ar (snd vd) (snd nb)) hb ++ fst nb)%list.
Proof. by rewrite net_back_step. Qed.

Lemma net_back_step_snd bias prev d d' rest acts (th h : list A) k :
  snd (net_back ar bias prev (d :: d' :: rest) acts th h k) =
  let rowlen := (prev + (if bias then 1%N else 0%N))%coq_nat in
  let hb := with_bias bias h (one ar) in
  let vd := act_vd ar (hd [::] acts) (layer_vals ar rowlen d th hb) in
  let nb := net_back ar bias d (d' :: rest) (tl acts) (drop_n (Nat.mul d rowlen) th) (fst vd) k in
  take_n prev (back_rows ar rowlen (hadamard ar (snd vd) (snd nb)) th (zeros ar rowlen)).
Proof. by rewrite net_back_step. Qed.

End Unfold.

Section NetLengths.
Context {A : Type} (ar : arith A).

(** Reverse mode returns one entry per parameter and one per input. *)
Lemma net_back_length bias k : forall rest d prev acts (th h : list A),
  length h = prev -> length th = n_params_from prev (d :: rest) (if bias then 1%N else 0%N) ->
  length (fst (net_back ar bias prev (d :: rest) acts th h k)) = length th /\
  length (snd (net_back ar bias prev (d :: rest) acts th h k)) = prev.
Proof.
  elim=> [|d' rest IH] d prev acts th h Hh Hth.
  - rewrite net_back_last /= length_scale_each length_unit_vec length_with_bias Hh.
    rewrite length_take_n length_back_rows ?length_zeros ?length_unit_vec;
      move: Hth => /= Hth; try split; lia.
  - rewrite net_back_step. cbv zeta. simpl in Hth.
    set rowlen := (prev + _)%coq_nat in Hth *. set hb := with_bias bias h (one ar).
    have [Lv Ldv] := length_act_vd ar (hd [::] acts) (layer_vals ar rowlen d th hb).
    rewrite length_layer_vals in Lv Ldv.
    move: (act_vd ar _ _) Lv Ldv => vd Lv Ldv.
    have [L1 L2] := IH d' d (tl acts) (drop_n (Nat.mul d rowlen) th) (fst vd) Lv
                      ltac:(rewrite length_drop_n /=; lia).
    move: (net_back _ _ _ _ _ _ _ _) L1 L2 => nb L1 L2 /=.
    rewrite app_length length_scale_each length_hadamard length_with_bias Hh L1 L2 Ldv
      length_drop_n Nat.min_id length_take_n length_back_rows ?length_zeros
      ?length_hadamard ?L2 ?Ldv ?Nat.min_id //; rewrite /rowlen; try split; lia.
Qed.

End NetLengths.

Section MLP.
Context {R : comRingType}.
Local Notation ar := (arith_ring R).
Local Notation arP := (arith_ring _ : arith {poly R}).

Lemma hd_map_polyC (acts : list (list R)) :
  hd [::] (List.map (List.map polyC) acts) = List.map polyC (hd [::] acts).
Proof. by case: acts. Qed.

Lemma tl_map {B C : Type} (f : B -> C) xs : tl (List.map f xs) = List.map f (tl xs).
Proof. by case: xs. Qed.

(** The adjoint identity of reverse mode through the layers [d :: rest] after a layer of width
    [prev]: for polynomial parameters [TH] and inputs [H] (in [t]), with
    [(gth, gh) = net_back (TH(0)) (H(0)) k],
    [f_k(TH, H)'(0) = gth . TH'(0) + gh . H'(0)]. *)
Lemma mlp_adjoint bias k : forall rest d prev acts TH H,
  length H = prev -> length TH = n_params_from prev (d :: rest) (if bias then 1%N else 0%N) ->
  (List.nth k (mlp_forward arP bias prev (d :: rest) (List.map (List.map polyC) acts) TH H) 0)`_1 =
  dot ar (fst (net_back ar bias prev (d :: rest) acts (coefs 0 TH) (coefs 0 H) k)) (coefs 1 TH) +
  dot ar (snd (net_back ar bias prev (d :: rest) acts (coefs 0 TH) (coefs 0 H) k)) (coefs 1 H).
Proof.
  elim=> [|d' rest IH] d prev acts TH H Hh Hth.
  - rewrite mlp_forward_last net_back_last nth_coefs -(dot_unit_vec d k); last first.
    { by rewrite length_coefs length_layer_vals. }
    by rewrite layer_back ?length_unit_vec // Hth /=; lia.
  - rewrite mlp_forward_step net_back_step_fst net_back_step_snd hd_map_polyC tl_map. cbv zeta. simpl in Hth.
    rewrite IH; last first.
    { rewrite length_drop_n /=. lia. }
    { by rewrite map_length length_layer_vals. }
    rewrite coefs_drop coefs_horner0 coefs_horner1 layer_vals_c0 coefs_with_bias0.
    set rowlen := (prev + _)%coq_nat in Hth *.
    set hb := with_bias bias (coefs 0 H) (one ar).
    have [Lv Ldv] := length_act_vd ar (hd [::] acts) (layer_vals ar rowlen d (coefs 0 TH) hb).
    rewrite length_layer_vals in Lv Ldv.
    rewrite -act_vd_fst.
    move: (act_vd ar _ _) Lv Ldv => vd Lv Ldv.
    have [L1 L2] := net_back_length ar bias k rest d' d (tl acts)
                      (drop_n (Nat.mul d rowlen) (coefs 0 TH)) (fst vd) Lv
                      ltac:(rewrite length_drop_n length_coefs Hth /=; lia).
    move: (net_back _ _ _ _ _ _ _ _) L1 L2 => nb L1 L2.
    have Lg : length (hadamard ar (snd vd) (snd nb)) = d.
    { by rewrite length_hadamard Ldv L2 Nat.min_id. }
    rewrite -dot_hadamard layer_back // ?Hth; last lia.
    rewrite dot_app length_scale_each Lg length_with_bias length_coefs Hh -coefs_drop.
    by rewrite addrCA addrA.
Qed.

(** Reverse mode computes derivatives (MLP): entry [j] of the kernel's row
    [net_row ... th x k] is [d f_theta(x)[k] / d theta_j], the coefficient of [t] of the network
    evaluated over [{poly R}] at [theta + t e_j] and the constant input [x]. The hypotheses are
    checked by the kernel's [shape_ok]; no bound on [k] or [j] is needed (both sides are [0]
    past the end). *)
Theorem mlp_backprop widths acts bias (th x : list R) k j :
  length th = n_params widths bias -> length x = first_width widths ->
  List.nth j (net_row ar widths acts bias th x k) 0 =
  (List.nth k (mlp_value arP widths (List.map (List.map polyC) acts) bias (line th 0 j)
                 (List.map polyC x)) 0)`_1.
Proof.
  rewrite /net_row /mlp_value.
  case: widths => [|d0 [|d rest]] Hth Hx; cbv beta iota.
  - by rewrite nth_coefs /=; case: j; case: k.
  - by rewrite /= nth_coefs coefs1_polyC nth_zeros; case: j.
  - rewrite mlp_adjoint ?map_length ?length_line // coefs0_line coefs0_polyC coefs1_polyC.
    rewrite dot_zeros_r addr0 dot_line ?Nat.sub_0_r //; last lia.
    by case: (net_back_length ar bias k rest d d0 acts th x Hx Hth).
Qed.

End MLP.

(** * ReLU networks with a fixed activation pattern *)

(** Every hidden layer of the widths [rest] (all but the last) has a pattern at least as long
    as the layer: the patterns the kernel and the Jacobian use (computed from the hidden
    pre-activations) have exactly these lengths ([relu_pres_fit], [relu_eval_fit]). *)
Fixpoint pats_fit (rest : list nat) (pats : list (list bool)) : Prop :=
  match rest with
  | [::] => True
  | d :: rest' =>
      match rest' with
      | [::] => True
      | _ :: _ => (d <= length (hd [::] pats))%coq_nat /\ pats_fit rest' (tl pats)
      end
  end.

Lemma pats_fit_step d d' rest pats :
  pats_fit (d :: d' :: rest) pats =
  ((d <= length (hd [::] pats))%coq_nat /\ pats_fit (d' :: rest) (tl pats)).
Proof. by []. Qed.

Section ReLUUnfold.
Context {A : Type} (ar : arith A).

Lemma relu_masked_last prev d pats (th h : list A) :
  relu_masked ar prev [:: d] pats th h =
  layer_vals ar (prev + 1%N)%coq_nat d th (with_bias true h (one ar)).
Proof. by []. Qed.

Lemma relu_masked_step prev d d' rest pats (th h : list A) :
  relu_masked ar prev (d :: d' :: rest) pats th h =
  relu_masked ar d (d' :: rest) (tl pats) (drop_n (Nat.mul d (prev + 1%N)%coq_nat) th)
    (mask_pat ar (hd [::] pats)
       (layer_vals ar (prev + 1%N)%coq_nat d th (with_bias true h (one ar)))).
Proof. by []. Qed.

Lemma relu_back_last prev d pats (th h : list A) k :
  relu_back ar prev [:: d] pats th h k =
  (scale_each ar (unit_vec ar d k) (with_bias true h (one ar)),
   take_n prev (back_rows ar (prev + 1%N)%coq_nat (unit_vec ar d k) th
                  (zeros ar (prev + 1%N)%coq_nat))).
Proof. by []. Qed.

(** A hidden layer: the pass through the later layers at the masked values, and the gradient
    [D gh] of the pre-activations ([D] the 0/1 diagonal of the pattern). *)
Lemma relu_back_step prev d d' rest pats (th h : list A) k :
  relu_back ar prev (d :: d' :: rest) pats th h k =
  let hb := with_bias true h (one ar) in
  let pat := hd [::] pats in
  let rb := relu_back ar d (d' :: rest) (tl pats) (drop_n (Nat.mul d (prev + 1%N)%coq_nat) th)
              (mask_vals ar pat (layer_vals ar (prev + 1%N)%coq_nat d th hb)) k in
  let g := mask_vals ar pat (snd rb) in
  ((scale_each ar g hb ++ fst rb)%list,
   take_n prev (back_rows ar (prev + 1%N)%coq_nat g th (zeros ar (prev + 1%N)%coq_nat))).
Proof.
  move E: (d' :: rest) => rs /=. case: rs E => [//|d'' rs'] _. cbv beta iota zeta.
  by destruct (relu_back ar d (d'' :: rs') (tl pats) (drop_n (Nat.mul d (prev + 1%N)%coq_nat) th)
      (mask_vals ar (hd [::] pats) (layer_vals ar (prev + 1%N)%coq_nat d th (h ++ [:: one ar])%list)) k).
Qed.

Lemma relu_back_step_fst prev d d' rest pats (th h : list A) k :
  fst (relu_back ar prev (d :: d' :: rest) pats th h k) =
  let hb := with_bias true h (one ar) in
  let pat := hd [::] pats in
  let rb := relu_back ar d (d' :: rest) (tl pats) (drop_n (Nat.mul d (prev + 1%N)%coq_nat) th)
              (mask_vals ar pat (layer_vals ar (prev + 1%N)%coq_nat d th hb)) k in
  (scale_each ar (mask_vals ar pat (snd rb)) hb ++ fst rb)%list.
Proof. by rewrite relu_back_step. Qed.

Lemma relu_back_step_snd prev d d' rest pats (th h : list A) k :
  snd (relu_back ar prev (d :: d' :: rest) pats th h k) =
  let hb := with_bias true h (one ar) in
  let pat := hd [::] pats in
  let rb := relu_back ar d (d' :: rest) (tl pats) (drop_n (Nat.mul d (prev + 1%N)%coq_nat) th)
              (mask_vals ar pat (layer_vals ar (prev + 1%N)%coq_nat d th hb)) k in
  take_n prev (back_rows ar (prev + 1%N)%coq_nat (mask_vals ar pat (snd rb)) th
                 (zeros ar (prev + 1%N)%coq_nat)).
Proof. by rewrite relu_back_step. Qed.

(** ReLU reverse mode returns one entry per parameter and one per input. *)
Lemma relu_back_length k : forall rest d prev pats (th h : list A),
  length h = prev -> length th = n_params_from prev (d :: rest) 1%N -> pats_fit (d :: rest) pats ->
  length (fst (relu_back ar prev (d :: rest) pats th h k)) = length th /\
  length (snd (relu_back ar prev (d :: rest) pats th h k)) = prev.
Proof.
  elim=> [|d' rest IH] d prev pats th h Hh Hth Hp.
  - rewrite relu_back_last; cbv beta iota delta [fst snd].
    rewrite length_scale_each length_unit_vec length_with_bias Hh.
    rewrite length_take_n length_back_rows ?length_zeros ?length_unit_vec;
      simpl in Hth; try split; lia.
  - rewrite relu_back_step_fst relu_back_step_snd. cbv zeta. simpl in Hth.
    rewrite pats_fit_step in Hp. case: Hp => Hp1 Hp2.
    set hb := with_bias true h (one ar).
    have Lm : length (mask_vals ar (hd [::] pats) (layer_vals ar (prev + 1%N)%coq_nat d th hb)) = d.
    { rewrite length_mask_vals length_layer_vals. lia. }
    have [L1 L2] := IH d' d (tl pats) (drop_n (Nat.mul d (prev + 1%N)%coq_nat) th) _ Lm
                      ltac:(rewrite length_drop_n /=; lia) Hp2.
    move: (relu_back _ _ _ _ _ _ _) L1 L2 => rb L1 L2.
    have Lg : length (mask_vals ar (hd [::] pats) (snd rb)) = d.
    { rewrite length_mask_vals L2. lia. }
    rewrite app_length length_scale_each Lg length_with_bias Hh L1 length_drop_n length_take_n
      length_back_rows ?length_zeros ?Lg //; try split; lia.
Qed.

End ReLUUnfold.

(** ** The patterns of the kernel and of the Jacobian fit the layers *)

Section Fit.
Context {A : Type} (ar : arith A).

Lemma relu_pres_step (pos : A -> bool) prev d d' rest (th h : list A) :
  relu_pres ar pos prev (d :: d' :: rest) th h =
  layer_vals ar (prev + 1%N)%coq_nat d th (h ++ [:: one ar])%list ::
  relu_pres ar pos d (d' :: rest) (drop_n (Nat.mul d (prev + 1%N)%coq_nat) th)
    (mask_pat ar (List.map pos (layer_vals ar (prev + 1%N)%coq_nat d th (h ++ [:: one ar])%list))
       (layer_vals ar (prev + 1%N)%coq_nat d th (h ++ [:: one ar])%list)).
Proof. by []. Qed.

(** The patterns of the hidden pre-activations ([relu_pres], as in [relu_jac_entry]). *)
Lemma relu_pres_fit (pos : A -> bool) : forall rest prev (th h : list A),
  pats_fit rest (List.map (List.map pos) (relu_pres ar pos prev rest th h)).
Proof.
  case=> [//|d rest]. elim: rest d => [//|d' rest IH] d prev th h.
  rewrite relu_pres_step pats_fit_step.
  move: (IH d' d (drop_n (Nat.mul d (prev + 1%N)%coq_nat) th)
           (mask_pat ar (List.map pos (layer_vals ar (prev + 1%N)%coq_nat d th (h ++ [:: one ar])%list))
              (layer_vals ar (prev + 1%N)%coq_nat d th (h ++ [:: one ar])%list))).
  move: (relu_pres _ _ _ _ _ _) => Y HY /=.
  by rewrite map_length length_layer_vals.
Qed.

End Fit.

Lemma relu_forward_snd_step prev d d' rest (th h : list (Z * Z)) :
  snd (relu_forward prev (d :: d' :: rest) th h) =
  layer_vals arith_q (prev + 1%N)%coq_nat d th (h ++ [:: (1%Z, 1%Z)])%list ::
  snd (relu_forward d (d' :: rest) (drop_n (Nat.mul d (prev + 1%N)%coq_nat) th)
         (relu_vec_q (layer_vals arith_q (prev + 1%N)%coq_nat d th (h ++ [:: (1%Z, 1%Z)])%list))).
Proof.
  move E: (d' :: rest) => rs /=. case: rs E => [//|d'' rs'] _. cbv beta iota zeta.
  by destruct (relu_forward d (d'' :: rs') (drop_n (Nat.mul d (prev + 1%N)%coq_nat) th)
      (relu_vec_q (layer_vals arith_q (prev + 1%N)%coq_nat d th (h ++ [:: (1%Z, 1%Z)])%list))).
Qed.

Lemma relu_forward_fit : forall rest prev (th h : list (Z * Z)),
  pats_fit rest (pattern_of (snd (relu_forward prev rest th h))).
Proof.
  case=> [//|d rest]. elim: rest d => [//|d' rest IH] d prev th h.
  rewrite relu_forward_snd_step pats_fit_step.
  move: (IH d' d (drop_n (Nat.mul d (prev + 1%N)%coq_nat) th)
           (relu_vec_q (layer_vals arith_q (prev + 1%N)%coq_nat d th (h ++ [:: (1%Z, 1%Z)])%list))).
  rewrite /pattern_of. move: (snd (relu_forward _ _ _ _)) => Y HY /=.
  by rewrite map_length length_layer_vals.
Qed.

(** The patterns the kernel computes ([pattern_of] of [relu_eval], as in [batch_patterns]). *)
Lemma relu_eval_fit widths (th x : list (Z * Z)) :
  pats_fit (tl widths) (pattern_of (snd (relu_eval widths th x))).
Proof. case: widths => [//|d0 rest]. exact: relu_forward_fit. Qed.

Section ReLUBackprop.
Context {R : comRingType}.
Local Notation ar := (arith_ring R).
Local Notation arP := (arith_ring _ : arith {poly R}).

(** The adjoint identity of ReLU reverse mode with the pattern fixed, through the layers
    [d :: rest] after a layer of width [prev]: for polynomial parameters [TH] and inputs [H],
    with [(gth, gh) = relu_back (TH(0)) (H(0)) k],
    [F_k(TH, H)'(0) = gth . TH'(0) + gh . H'(0)]. *)
Lemma relu_adjoint k : forall rest d prev pats TH H,
  length H = prev -> length TH = n_params_from prev (d :: rest) 1%N -> pats_fit (d :: rest) pats ->
  (List.nth k (relu_masked arP prev (d :: rest) pats TH H) 0)`_1 =
  dot ar (fst (relu_back ar prev (d :: rest) pats (coefs 0 TH) (coefs 0 H) k)) (coefs 1 TH) +
  dot ar (snd (relu_back ar prev (d :: rest) pats (coefs 0 TH) (coefs 0 H) k)) (coefs 1 H).
Proof.
  elim=> [|d' rest IH] d prev pats TH H Hh Hth Hp.
  - rewrite relu_masked_last relu_back_last nth_coefs -(dot_unit_vec d k); last first.
    { by rewrite length_coefs length_layer_vals. }
    by rewrite (layer_back prev true) ?length_unit_vec // Hth /=; lia.
  - rewrite relu_masked_step relu_back_step_fst relu_back_step_snd. cbv zeta. simpl in Hth.
    rewrite pats_fit_step in Hp. case: Hp => Hp1 Hp2.
    have LH' : length (mask_pat arP (hd [::] pats)
                 (layer_vals arP (prev + 1%N)%coq_nat d TH (with_bias true H (one arP)))) = d.
    { rewrite -(length_coefs 0) coefs_mask_pat length_mask_vals length_coefs length_layer_vals.
      lia. }
    have LTH' : length (drop_n (Nat.mul d (prev + 1%N)%coq_nat) TH) = n_params_from d (d' :: rest) 1%N.
    { rewrite length_drop_n Hth /=. lia. }
    rewrite (IH d' d (tl pats) _ _ LH' LTH' Hp2).
    rewrite coefs_drop !coefs_mask_pat layer_vals_c0 coefs_with_bias0.
    set hb := with_bias true (coefs 0 H) (one ar).
    have Lm : length (mask_vals ar (hd [::] pats)
                (layer_vals ar (prev + 1%N)%coq_nat d (coefs 0 TH) hb)) = d.
    { rewrite length_mask_vals length_layer_vals. lia. }
    have [L1 L2] := relu_back_length ar k rest d' d (tl pats)
                      (drop_n (Nat.mul d (prev + 1%N)%coq_nat) (coefs 0 TH)) _ Lm
                      ltac:(rewrite length_drop_n length_coefs Hth /=; lia) Hp2.
    move: (relu_back _ _ _ _ _ _ _) L1 L2 => rb L1 L2.
    have Lg : length (mask_vals ar (hd [::] pats) (snd rb)) = d.
    { rewrite length_mask_vals L2. lia. }
    rewrite dot_mask_vals (layer_back prev true) // ?Hth; last lia.
    rewrite dot_app length_scale_each Lg length_with_bias length_coefs Hh -coefs_drop.
    by rewrite addrCA addrA.
Qed.

(** Reverse mode computes derivatives (ReLU network, activation pattern [pats] fixed): entry
    [j] of the kernel's row [relu_back ... th x k] is [d F_theta(x)[k] / d theta_j] for the
    polynomial network [relu_masked] with the same patterns, the coefficient of [t] of its
    value over [{poly R}] at [theta + t e_j] and the constant input [x]. The first two
    hypotheses are checked by the kernel's [relu_shape_ok]; [pats_fit] holds for the patterns
    of the kernel ([relu_eval_fit]) and of the Jacobian ([relu_pres_fit]). *)
Theorem relu_backprop widths pats (th x : list R) k j :
  length th = n_params widths true -> length x = first_width widths ->
  pats_fit (tl widths) pats ->
  List.nth j (fst (relu_back ar (first_width widths) (tl widths) pats th x k)) 0 =
  (List.nth k (relu_masked arP (first_width widths) (tl widths) pats (line th 0 j)
                 (List.map polyC x)) 0)`_1.
Proof.
  case: widths => [|d0 [|d rest]] Hth Hx Hp.
  - by rewrite /= nth_coefs coefs1_polyC nth_zeros; case: j.
  - by rewrite /= nth_coefs coefs1_polyC nth_zeros; case: j.
  - rewrite [first_width _]/= [tl _]/=.
    rewrite relu_adjoint ?map_length ?length_line // coefs0_line coefs0_polyC coefs1_polyC.
    rewrite dot_zeros_r addr0 dot_line ?Nat.sub_0_r //; last lia.
    by case: (relu_back_length ar k rest d d0 pats th x Hx Hth Hp).
Qed.

End ReLUBackprop.

(** * What the kernel's checks give, and links to the other files *)

(** [shape_ok] gives the hypotheses of [mlp_backprop] ([rows_len]: every sample has the input
    width), and more. *)
Lemma shape_ok_lengths widths acts bias th samples :
  shape_ok widths acts bias th samples = true ->
  length th = n_params widths bias /\ rows_len (first_width widths) samples = true /\
  (2 <= length widths)%coq_nat /\ (length acts + 2)%coq_nat = length widths.
Proof.
  rewrite /shape_ok => /andP [/andP [/andP [/andP [/andP [H1 _] H3] _] H5] H6].
  by move/Nat.leb_le: H1; move/Nat.eqb_eq: H3; move/Nat.eqb_eq: H5.
Qed.

(** [relu_shape_ok] gives the first two hypotheses of [relu_backprop], and more. *)
Lemma relu_shape_ok_lengths widths th batch :
  relu_shape_ok widths th batch = true ->
  length th = n_params widths true /\ rows_len (first_width widths) batch = true /\
  (2 <= length widths)%coq_nat.
Proof.
  rewrite /relu_shape_ok => /andP [/andP [/andP [/andP [/andP [H1 _] H3] _] H5] _].
  by move/Nat.leb_le: H1; move/Nat.eqb_eq: H3.
Qed.

(** RankMeaning.v's [theta_line] is the [line] of the rationals [q_of theta]. *)
Lemma theta_line_line th i j : theta_line th i j = line (List.map q_of th) i j.
Proof. by elim: th i => [|v th IH] i //=; rewrite IH. Qed.

(** Entrywise sums (ResNet.v [vec_add]): coefficients and dot products. *)
Section VecAdd.
Context {R : comRingType}.
Local Notation ar := (arith_ring R).
Local Notation arP := (arith_ring _ : arith {poly R}).

Lemma coefs_vec_add i (a b : list {poly R}) :
  coefs i (vec_add arP a b) = vec_add ar (coefs i a) (coefs i b).
Proof. by elim: a b => [|x a IH] [|y b] //=; rewrite coefD IH. Qed.

(** [(a + b) . c = a . c + b . c] for [|a| = |b|]. *)
Lemma dot_vec_add a b c : length a = length b ->
  dot ar (vec_add ar a b) c = dot ar a c + dot ar b c.
Proof.
  elim: a b c => [|x a IH] [|y b] [|z c] //= Hl; rewrite ?addr0 //.
  case: Hl => Hl. by rewrite IH // mulrDl addrACA.
Qed.

Lemma length_vec_add (a b : list R) : length (vec_add ar a b) = Nat.min (length a) (length b).
Proof. by elim: a b => [|x a IH] [|y b] //=; rewrite IH. Qed.

End VecAdd.
