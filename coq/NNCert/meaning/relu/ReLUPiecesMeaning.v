(** What a piecewise ReLU equivalence certificate means (kind equiv of family relu, input
    width 1): the kernel's [check_relu_equiv] (kernel/ReLU.v) gives [F_theta(x) = F_theta2(x)]
    at every input [x] of every real field [R] (MathComp's [realFieldType]: an ordered field,
    such as Q or the real numbers), the rational parameters embedded by [ratr]
    ([relu_pieces_meaning], [same_on_line]). The networks are ReLUEquivMeaning.v's [relu_out]
    ([ReLU(q) = q] if [0 < q], else [0]) evaluated over [R] ([relu_at]).
    - Between two inputs [a < b], write [x = (1 - s) a + s b]. An affine map sends this
      combination of inputs to the same combination of outputs ([layer_vals_comb]); ReLU does
      too when the two pre-activations have the same weak sign and the combination keeps it
      ([relu_comb]): for [s] in [[0, 1]] when both are [>= 0] or both [<= 0] (mode 0); for
      [s <= 1] (the ray left of [b]) when [0 <= v <= u] or [u <= v <= 0] (mode 1); for [s >= 0]
      (the ray right of [a]) when [0 <= u <= v] or [v <= u <= 0] (mode 2); [u], [v] the
      values at [a] and [b]. These are the kernel's [side_ok] conditions, checked over Q for
      every hidden neuron of both networks at the points; embedding Q into [R] keeps them
      ([pres_sideQ_ratr]: [ratr] is an order-preserving ring morphism, so the networks over
      [R] at the embedded points are the embedded networks over Q: [relu_out_ratr]). So on
      every piece each network is the combination of its values at the ends
      ([relu_out_comb]), and two networks equal at the ends are equal on the piece.
    - The sorted points cut the line into the pieces: the ray left of the second point
      (mode 1), the intervals between consecutive points (mode 0), the ray right of the
      second-to-last point (mode 2); every [x] of [R] lies in one of them. *)
From Coq Require Import ZArith List Bool Lia.
From NNCert Require Import Lists Arith Net RankCore Rank ReLU Jacobian RankMeaning.
From NNCert Require Import ReverseModeRel EquivMeaning ReLUEquivMeaning.
Set Warnings "-notation-overridden,-ambiguous-paths".
From mathcomp Require Import ssreflect ssrfun ssrbool eqtype ssrnat seq order ssralg ssrnum rat.
Import Order.TTheory GRing.Theory Num.Theory.
Local Open Scope ring_scope.

Notation arQ := (arith_ring _ : arith rat).
Notation posQ := (fun q : rat => 0 < q).

(** * On a piece, over any real field [R] *)

Section Field.
Context {R : realFieldType}.
Local Notation aR := (arith_ring R).
Local Notation posR := (fun q : R => 0 < q).

(** [ReLU] over [R]. *)
Definition relu_q (q : R) : R := if 0 < q then q else 0.

(** [(1 - s) u + s v], entrywise (to the shorter length). *)
Fixpoint comb (s : R) (u v : list R) : list R :=
  match u, v with
  | a :: u', b :: v' => ((1 - s) * a + s * b) :: comb s u' v'
  | _, _ => nil
  end.

Lemma comb_length s u v : length u = length v -> length (comb s u v) = length u.
Proof. by elim: u v => [| a u IH] [| b v] //= [/IH ->]. Qed.

Lemma length_cat (u v : list R) : length (u ++ v) = (length u + length v)%N.
Proof. by elim: u => //= a u ->. Qed.

Lemma comb_one s (c : R) u v : length u = length v ->
  comb s (u ++ [:: c]) (v ++ [:: c]) = comb s u v ++ [:: c].
Proof.
  elim: u v => [| a u IH] [| b v] //= => [_ | [E]]; last by rewrite IH.
  by rewrite -mulrDl subrK mul1r.
Qed.

Lemma dot_comb s w : forall u v, length u = length v ->
  dot aR w (comb s u v) = (1 - s) * dot aR w u + s * dot aR w v.
Proof.
  elim: w => [| c w IH] u v E; first by rewrite /= !mulr0 addr0.
  case: u v E => [| a u] [| b v] //= E; first by rewrite !mulr0 addr0.
  case: E => E. rewrite IH // mulrDr !mulrDr !(mulrCA c) addrACA //.
Qed.

Lemma layer_vals_comb s rowlen : forall d th u v, length u = length v ->
  layer_vals aR rowlen d th (comb s u v) =
  comb s (layer_vals aR rowlen d th u) (layer_vals aR rowlen d th v).
Proof.
  elim=> [| d IH] th u v E //=. by rewrite dot_comb // IH.
Qed.

Lemma layer_vals_length_r rowlen d th h : length (layer_vals aR rowlen d th h) = d.
Proof. by elim: d th => [| d IH] th //=; rewrite IH. Qed.

(** ReLU applied entrywise is [mask_pat] with the positivity pattern. *)
Lemma mask_relu (l : list R) : mask_pat aR (List.map posR l) l = List.map relu_q l.
Proof. by elim: l => [| a l IH] //=; rewrite IH. Qed.

Lemma relu_q_ge0 c : 0 <= c -> relu_q c = c.
Proof.
  rewrite /relu_q => H. case: ifP => // /negbT. rewrite -leNgt => H'.
  by apply/eqP; rewrite eq_sym eq_le H H'.
Qed.

Lemma relu_q_le0 c : c <= 0 -> relu_q c = 0.
Proof. by rewrite /relu_q ltNge => ->. Qed.

Lemma add_le0 (a b : R) : a <= 0 -> b <= 0 -> a + b <= 0.
Proof. by move=> Ha Hb; rewrite -oppr_ge0 opprD addr_ge0 // oppr_ge0. Qed.

(** [(1 - s) u + s v = u + s (v - u)]. *)
Lemma comb_eq (s u v : R) : (1 - s) * u + s * v = u + s * (v - u).
Proof. by rewrite mulrBl mul1r mulrBr addrA addrAC. Qed.

(** [(1 - s) u + s v = v + (1 - s) (u - v)]. *)
Lemma comb_eq' (s u v : R) : (1 - s) * u + s * v = v + (1 - s) * (u - v).
Proof.
  have E : 1 - (1 - s) = s by rewrite opprB addrC subrK.
  by rewrite addrC -{1}E comb_eq.
Qed.

(** The weak sign conditions of the kernel's [side_ok], over [R]. *)
Definition sideQ (mode : nat) (u v : R) : bool :=
  match mode with
  | O => (0 <= u) && (0 <= v) || (u <= 0) && (v <= 0)
  | S O => (0 <= v) && (v <= u) || (u <= v) && (v <= 0)
  | _ => (0 <= u) && (u <= v) || (v <= u) && (u <= 0)
  end.

(** The combinations of a piece: [s] in [[0, 1]], [s <= 1] or [s >= 0]. *)
Definition in_range (mode : nat) (s : R) : bool :=
  match mode with
  | O => (0 <= s) && (s <= 1)
  | S O => s <= 1
  | _ => 0 <= s
  end.

Lemma relu_comb_pos s a b : 0 <= a -> 0 <= b -> 0 <= (1 - s) * a + s * b ->
  relu_q ((1 - s) * a + s * b) = (1 - s) * relu_q a + s * relu_q b.
Proof. by move=> Ha Hb Hc; rewrite !relu_q_ge0. Qed.

Lemma relu_comb_neg s a b : a <= 0 -> b <= 0 -> (1 - s) * a + s * b <= 0 ->
  relu_q ((1 - s) * a + s * b) = (1 - s) * relu_q a + s * relu_q b.
Proof. by move=> Ha Hb Hc; rewrite !relu_q_le0 // !mulr0 addr0. Qed.

(** ReLU commutes with the combination on a piece. *)
Lemma relu_comb mode s a b : sideQ mode a b -> in_range mode s ->
  relu_q ((1 - s) * a + s * b) = (1 - s) * relu_q a + s * relu_q b.
Proof.
  case: mode => [| [| mode]] /=.
  - move=> /orP [/andP [Ha Hb] | /andP [Ha Hb]] /andP [H0 H1].
    + apply: relu_comb_pos => //. by rewrite addr_ge0 // mulr_ge0 // subr_ge0.
    + apply: relu_comb_neg => //. apply: add_le0; apply: mulr_ge0_le0 => //.
      by rewrite subr_ge0.
  - move=> /orP [/andP [Hb Hba] | /andP [Hab Hb]] H1.
    + apply: relu_comb_pos => //; first exact: le_trans Hb Hba.
      by rewrite comb_eq' addr_ge0 // mulr_ge0 // subr_ge0.
    + apply: relu_comb_neg => //; first exact: le_trans Hab Hb.
      rewrite comb_eq' add_le0 // mulr_ge0_le0 //; first by rewrite subr_ge0.
      by rewrite subr_le0.
  - move=> /orP [/andP [Ha Hab] | /andP [Hba Ha]] H0.
    + apply: relu_comb_pos => //; first exact: le_trans Ha Hab.
      by rewrite comb_eq addr_ge0 // mulr_ge0 // subr_ge0.
    + apply: relu_comb_neg => //; first exact: le_trans Hba Ha.
      rewrite comb_eq add_le0 // mulr_ge0_le0 //. by rewrite subr_le0.
Qed.

(** [sideQ] for every neuron of a layer, and for every hidden layer. *)
Fixpoint layer_sideQ (mode : nat) (us vs : list R) : bool :=
  match us, vs with
  | [::], [::] => true
  | u :: us', v :: vs' => sideQ mode u v && layer_sideQ mode us' vs'
  | _, _ => false
  end.

Fixpoint pres_sideQ (mode : nat) (pus pvs : list (list R)) : bool :=
  match pus, pvs with
  | [::], [::] => true
  | us :: pus', vs :: pvs' => layer_sideQ mode us vs && pres_sideQ mode pus' pvs'
  | _, _ => false
  end.

Lemma relu_map_comb mode s u v : in_range mode s -> layer_sideQ mode u v ->
  List.map relu_q (comb s u v) = comb s (List.map relu_q u) (List.map relu_q v).
Proof.
  move=> Hs. elim: u v => [| a u IH] [| b v] //= /andP [Hab Huv].
  by rewrite (relu_comb mode) // IH.
Qed.

(** On a piece the network is the combination of its values at the ends. *)
Lemma relu_out_comb mode s : in_range mode s -> forall rest prev th hu hv,
  length hu = length hv ->
  pres_sideQ mode (relu_pres aR posR prev rest th hu) (relu_pres aR posR prev rest th hv) ->
  relu_out aR posR prev rest th (comb s hu hv) =
  comb s (relu_out aR posR prev rest th hu) (relu_out aR posR prev rest th hv).
Proof.
  move=> Hs. elim=> [| d rest IH] prev th hu hv E //=.
  rewrite -comb_one // layer_vals_comb; last by rewrite !length_cat E.
  case: rest IH => [| d' rest] IH //= /andP [Hl Hp].
  rewrite !mask_relu (relu_map_comb mode) // -!mask_relu. apply: IH => //.
  by rewrite !mask_relu !map_length !layer_vals_length_r.
Qed.

(** [x] is the combination with [s = (x - a) / (b - a)]. *)
Lemma interp (a b x : R) : a < b -> (1 - (x - a) / (b - a)) * a + (x - a) / (b - a) * b = x.
Proof.
  move=> H. have Hn : b - a != 0 by rewrite subr_eq0 eq_sym lt_eqF.
  by rewrite comb_eq divfK // addrC subrK.
Qed.

Lemma range_left (a b x : R) : a < b -> x <= b -> in_range 1 ((x - a) / (b - a)).
Proof.
  move=> Hab Hx /=. rewrite ler_pdivr_mulr ?subr_gt0 // mul1r.
  by rewrite ler_sub.
Qed.

Lemma range_right (a b x : R) : a < b -> a <= x -> in_range 2 ((x - a) / (b - a)).
Proof.
  move=> Hab Hx /=. by rewrite divr_ge0 // subr_ge0 // ltW.
Qed.

Lemma range_mid (a b x : R) : a < b -> a <= x -> x <= b -> in_range 0 ((x - a) / (b - a)).
Proof.
  move=> Hab Ha Hb /=. apply/andP; split; [exact: (range_right a b x) | exact: (range_left a b x)].
Qed.

(** * From Q to [R] *)

(** The evaluators commute with [ratr], the embedding of Q into [R], which also keeps the
    order (so the positivity pattern and the sign conditions). *)
Local Notation mr := (List.map (@ratr R)).

Lemma dot_ratr (ws xs : list rat) : ratr (dot (arith_ring _ : arith rat) ws xs) = dot aR (mr ws) (mr xs).
Proof.
  elim: ws xs => [| w ws IH] [| x xs] /=; rewrite ?rmorph0 //.
  by rewrite -IH rmorphD rmorphM.
Qed.

Lemma take_n_ratr n (xs : list rat) : mr (take_n n xs) = take_n n (mr xs).
Proof. by elim: n xs => [| n IH] [| x xs] //=; rewrite IH. Qed.

Lemma drop_n_ratr n (xs : list rat) : mr (drop_n n xs) = drop_n n (mr xs).
Proof. by elim: n xs => [| n IH] [| x xs] //=; rewrite IH. Qed.

Lemma layer_vals_ratr rowlen d (th hb : list rat) :
  mr (layer_vals (arith_ring _ : arith rat) rowlen d th hb) = layer_vals aR rowlen d (mr th) (mr hb).
Proof.
  elim: d th => [| d IH] th //=. by rewrite dot_ratr take_n_ratr IH drop_n_ratr.
Qed.

Lemma mask_ratr (l : list rat) :
  mr (mask_pat (arith_ring _ : arith rat) (List.map (fun q : rat => 0 < q) l) l) =
  mask_pat aR (List.map posR (mr l)) (mr l).
Proof.
  elim: l => [| a l IH] //=. rewrite IH ltr0q. by case: (0 < a); rewrite ?rmorph0.
Qed.

Lemma relu_out_ratr rest : forall prev (th h : list rat),
  mr (relu_out (arith_ring _ : arith rat) (fun q : rat => 0 < q) prev rest th h) =
  relu_out aR posR prev rest (mr th) (mr h).
Proof.
  elim: rest => [| d rest IH] prev th h //=.
  have Eh : mr (h ++ [:: 1]) = mr h ++ [:: 1] by rewrite List.map_app /= rmorph1.
  case: rest IH => [| d' rest] IH; first by rewrite layer_vals_ratr Eh.
  by rewrite IH drop_n_ratr mask_ratr layer_vals_ratr Eh.
Qed.

Lemma relu_pres_ratr rest : forall prev (th h : list rat),
  List.map mr (relu_pres (arith_ring _ : arith rat) (fun q : rat => 0 < q) prev rest th h) =
  relu_pres aR posR prev rest (mr th) (mr h).
Proof.
  elim: rest => [| d rest IH] prev th h //=.
  have Eh : mr (h ++ [:: 1]) = mr h ++ [:: 1] by rewrite List.map_app /= rmorph1.
  case: rest IH => [| d' rest] IH //=.
  by rewrite IH drop_n_ratr mask_ratr layer_vals_ratr Eh.
Qed.

End Field.

(** The sign conditions are the same before and after embedding Q into [R]. *)
Section Bridge.
Context {R : realFieldType}.
Local Notation mr := (List.map (@ratr R)).

Lemma sideQ_ratr mode (u v : rat) : sideQ mode (ratr u : R) (ratr v) = sideQ mode u v.
Proof. by case: mode => [| [| mode]] /=; rewrite ?ler0q ?lerq0 ?ler_rat. Qed.

Lemma layer_sideQ_ratr mode (us vs : list rat) :
  layer_sideQ mode (mr us : list R) (mr vs) = layer_sideQ mode us vs.
Proof. by elim: us vs => [| u us IH] [| v vs] //=; rewrite sideQ_ratr IH. Qed.

Lemma pres_sideQ_ratr mode (P Q : list (list rat)) :
  pres_sideQ mode (List.map mr P : list (list R)) (List.map mr Q) = pres_sideQ mode P Q.
Proof. by elim: P Q => [| u P IH] [| v Q] //=; rewrite layer_sideQ_ratr IH. Qed.

End Bridge.

(** * The kernel's sign checks, over Q *)

Lemma RQneg q a : RQ q a -> RQ (- q) (qneg a).
Proof. move=> [Ha ->]. split; [done|]. by rewrite /q_of /qneg /= zrN mulNr. Qed.

(** [qle a b] is [q <= r] for the rationals the pairs denote. *)
Lemma qle_RQ q r a b : RQ q a -> RQ r b -> qle a b = (q <= r).
Proof.
  move=> Hq Hr. rewrite leNgt -subr_gt0 (RQ_pos _ _ (RQadd _ _ _ _ Hq (RQneg _ _ Hr))).
  rewrite /qpos /qadd /qneg /qle /=.
  case: (Z.leb_spec (a.1 * b.2) (b.1 * a.2)) => H1;
    case: (Z.ltb_spec 0 (a.1 * b.2 + - b.1 * a.2)%Z) => H2 //=; exfalso; lia.
Qed.

Lemma side_ok_RQ mode u v a b : RQ u a -> RQ v b -> side_ok mode a b = sideQ mode u v.
Proof.
  move=> Hu Hv. rewrite /side_ok /sideQ /=.
  by case: mode => [| [| mode]]; rewrite ?(qle_RQ _ _ _ _ RQ0 Hu) ?(qle_RQ _ _ _ _ RQ0 Hv)
    ?(qle_RQ _ _ _ _ Hu RQ0) ?(qle_RQ _ _ _ _ Hv RQ0) ?(qle_RQ _ _ _ _ Hu Hv)
    ?(qle_RQ _ _ _ _ Hv Hu).
Qed.

Lemma layer_side_ok_RQ mode us vs as' bs : Forall2 RQ us as' -> Forall2 RQ vs bs ->
  layer_side_ok mode as' bs = layer_sideQ mode us vs.
Proof.
  move=> H; elim: H vs bs => [| u a us0 as0 Hu _ IH] vs bs Hv; case: Hv => //= v b vs0 bs0 Hvb Hv.
  by rewrite (side_ok_RQ mode u v a b) // (IH vs0 bs0 Hv).
Qed.

Lemma pres_side_ok_RQ mode P Q P' Q' : Forall2 (Forall2 RQ) P P' -> Forall2 (Forall2 RQ) Q Q' ->
  pres_side_ok mode P' Q' = pres_sideQ mode P Q.
Proof.
  move=> H; elim: H Q Q' => [| u a us0 as0 Hu _ IH] Q Q' Hv; case: Hv => //= v b vs0 bs0 Hvb Hv.
  by rewrite (layer_side_ok_RQ mode u v a b) // (IH vs0 bs0 Hv).
Qed.


(** The hidden pre-activations at a rational input, over Q (the kernel's link). *)
Definition pres_at (inst : relu_instance) (th : list (Z * Z)) (x : rat) : list (list rat) :=
  match ri_widths inst with
  | nil => [::]
  | d0 :: rest => relu_pres arQ posQ d0 rest (List.map q_of th) [:: x]
  end.

Lemma pres_at_RQ inst th p : rats_pos th = true -> (0 < snd p)%Z ->
  Forall2 (Forall2 RQ) (pres_at inst th (q_of p)) (snd (relu_eval (ri_widths inst) th [:: p])).
Proof.
  move=> Ht Hp. rewrite /pres_at /relu_eval. case: (ri_widths inst) => [| d0 rest] //=.
  rewrite relu_forward_pres.
  apply: (relu_pres_rel arQ arith_q RQ RQ0 RQ1 RQadd RQmul); first exact: RQ_pos.
  - exact: rats_rel.
  - by constructor; [split| constructor].
Qed.

Lemma lt_points a b : (0 < snd a)%Z -> (0 < snd b)%Z -> negb (qle b a) = true ->
  q_of a < q_of b.
Proof.
  move=> Ha Hb H. by rewrite ltNge -(qle_RQ _ _ _ _ (conj Hb erefl) (conj Ha erefl)).
Qed.

(** * Two networks on the line, over any real field [R] *)

Section Line.
Context {R : realFieldType}.
Local Notation aR := (arith_ring R).
Local Notation posR := (fun q : R => 0 < q).
Local Notation mr := (List.map (@ratr R)).

(** [F_th(x)] at an input [x] of [R] (input width 1): the parameters [th] embedded in [R]. *)
Definition relu_at (inst : relu_instance) (th : list (Z * Z)) (x : R) : list R :=
  match ri_widths inst with
  | nil => [::]
  | d0 :: rest => relu_out aR posR d0 rest (mr (List.map q_of th)) [:: x]
  end.

(** At a rational input it is ReLUEquivMeaning.v's network over Q, embedded. *)
Lemma relu_at_ratr inst th p : relu_at inst th (ratr (q_of p)) = mr (relu_fun inst th p).
Proof.
  rewrite /relu_at /relu_fun. case: (ri_widths inst) => [| d0 rest] //=.
  by rewrite relu_out_ratr.
Qed.

(** On a piece whose signs the kernel checked, the network is the combination of its values
    at the ends. *)
Lemma piece_comb inst th mode (a b : Z * Z) (s : R) :
  rats_pos th = true -> (0 < snd a)%Z -> (0 < snd b)%Z -> in_range mode s ->
  pres_side_ok mode (snd (relu_eval (ri_widths inst) th [:: a]))
    (snd (relu_eval (ri_widths inst) th [:: b])) = true ->
  relu_at inst th ((1 - s) * ratr (q_of a) + s * ratr (q_of b)) =
  comb s (relu_at inst th (ratr (q_of a))) (relu_at inst th (ratr (q_of b))).
Proof.
  move=> Ht Ha Hb Hs.
  rewrite (pres_side_ok_RQ mode _ _ _ _ (pres_at_RQ inst th a Ht Ha) (pres_at_RQ inst th b Ht Hb)).
  rewrite -(pres_sideQ_ratr (R:=R)).
  rewrite /pres_at /relu_at. case: (ri_widths inst) => [| d0 rest] //= Hok.
  rewrite !relu_pres_ratr /= in Hok.
  have -> : [:: (1 - s) * ratr (q_of a) + s * ratr (q_of b)] =
    comb s [:: ratr (q_of a)] [:: ratr (q_of b)] by [].
  exact: (relu_out_comb mode s Hs rest d0 _ [:: ratr (q_of a)] [:: ratr (q_of b)] erefl Hok).
Qed.

(** The two networks agree on the piece of [mode] between [a] and [b]. *)
Definition eq_on (inst : relu_instance) (th th2 : list (Z * Z)) (mode : nat) (a b : R) : Prop :=
  forall s, in_range mode s ->
    relu_at inst th ((1 - s) * a + s * b) = relu_at inst th2 ((1 - s) * a + s * b).

Lemma eq_on_piece inst th th2 mode a b : rats_pos th = true -> rats_pos th2 = true ->
  (0 < snd a)%Z -> (0 < snd b)%Z ->
  pres_side_ok mode (snd (relu_eval (ri_widths inst) th [:: a]))
    (snd (relu_eval (ri_widths inst) th [:: b])) = true ->
  pres_side_ok mode (snd (relu_eval (ri_widths inst) th2 [:: a]))
    (snd (relu_eval (ri_widths inst) th2 [:: b])) = true ->
  relu_at inst th (ratr (q_of a)) = relu_at inst th2 (ratr (q_of a)) ->
  relu_at inst th (ratr (q_of b)) = relu_at inst th2 (ratr (q_of b)) ->
  eq_on inst th th2 mode (ratr (q_of a)) (ratr (q_of b)).
Proof.
  move=> Ht Ht2 Ha Hb H1 H2 Ea Eb s Hs.
  by rewrite (piece_comb inst th mode a b s) // (piece_comb inst th2 mode a b s) // Ea Eb.
Qed.

(** A piece covers [x] when [x = (1 - s) a + s b] for an [s] of its range. *)
Lemma eq_on_at inst th th2 mode (a b x : R) : a < b -> in_range mode ((x - a) / (b - a)) ->
  eq_on inst th th2 mode a b -> relu_at inst th x = relu_at inst th2 x.
Proof. move=> Hab Hs He. by have := He _ Hs; rewrite interp. Qed.

Lemma lt_points_ratr a b : (0 < snd a)%Z -> (0 < snd b)%Z -> negb (qle b a) = true ->
  (ratr (q_of a) : R) < ratr (q_of b).
Proof. move=> Ha Hb H. by rewrite ltr_rat lt_points. Qed.

(** Right of the first of at least two points: the intervals, then the last ray. *)
Lemma cover_right inst th th2 (x : R) : rats_pos th = true -> rats_pos th2 = true ->
  forall rest p1 p2,
  rats_pos [:: p1, p2 & rest] = true -> strictly_increasing [:: p1, p2 & rest] = true ->
  pairs_ok (eval_points (ri_widths inst) th [:: p1, p2 & rest]) = true ->
  pairs_ok (eval_points (ri_widths inst) th2 [:: p1, p2 & rest]) = true ->
  last_pair_ok (eval_points (ri_widths inst) th [:: p1, p2 & rest]) = true ->
  last_pair_ok (eval_points (ri_widths inst) th2 [:: p1, p2 & rest]) = true ->
  (forall p, In p [:: p1, p2 & rest] ->
     relu_at inst th (ratr (q_of p)) = relu_at inst th2 (ratr (q_of p))) ->
  ratr (q_of p1) <= x -> relu_at inst th x = relu_at inst th2 x.
Proof.
  move=> Ht Ht2. elim=> [| p3 rest IH] p1 p2 /=.
  - move=> /andP [/Z.ltb_lt H1 /andP [/Z.ltb_lt H2 _]] /andP [/andP [_ Hn] _] _ _ L1 L2 E Hx.
    have Hlt := lt_points_ratr p1 p2 H1 H2 Hn.
    apply: (eq_on_at inst th th2 2 _ _ x Hlt (range_right _ _ _ Hlt Hx)).
    apply: eq_on_piece => //; apply: E; by [left | right; left].
  - move=> /andP [/Z.ltb_lt H1 Hr] /andP [/andP [_ Hn] Hinc] /andP [S1 Pr1] /andP [S2 Pr2]
      L1 L2 E Hx.
    have Hr' := Hr. move: Hr' => /andP [/Z.ltb_lt H2 _].
    have Hlt := lt_points_ratr p1 p2 H1 H2 Hn.
    case: (boolP (x <= ratr (q_of p2))) => Hx2.
    + apply: (eq_on_at inst th th2 0 _ _ x Hlt (range_mid _ _ _ Hlt Hx Hx2)).
      apply: eq_on_piece => //; apply: E; by [left | right; left].
    + apply: (IH p2 p3) => //.
      * by move=> p Hp; apply: E; right.
      * by rewrite ltW // ltNge.
Qed.

(** The kernel's outputs at the points agree: so do the networks'. *)
Lemma same_at inst th th2 : rats_pos th = true -> rats_pos th2 = true -> forall pts,
  rats_pos pts = true ->
  same_outputs (eval_points (ri_widths inst) th pts) (eval_points (ri_widths inst) th2 pts) = true ->
  forall p, In p pts -> relu_at inst th (ratr (q_of p)) = relu_at inst th2 (ratr (q_of p)).
Proof.
  move=> Ht Ht2. elim=> [| a pts IH] //= /andP [/Z.ltb_lt Ha Hpts] /andP [Hq Hs] p [<- | Hp].
  - move: Hq. rewrite (RQ_qeq_all _ _ _ _ (relu_eval_RQ inst th a Ht Ha)
                         (relu_eval_RQ inst th2 a Ht2 Ha)).
    by rewrite !relu_at_ratr => /eqP ->.
  - exact: IH.
Qed.

End Line.

(** * The theorem the certificates apply *)

(** The statement of a certificate's [same_function]: the ReLU networks of [inst] at [th] and
    [th2] (input width 1, the parameters embedded) give the same outputs at every input of
    every real field [R] (an ordered field: Q, the real algebraic numbers, R, ...). *)
Definition same_on_line (inst : relu_instance) (th th2 : list (Z * Z)) : Prop :=
  forall (R : realFieldType) (x : R), relu_at inst th x = relu_at inst th2 x.

(** [check_relu_equiv inst th2 pts = true]: [F_theta = F_th2] on every real field. *)
Theorem relu_pieces_meaning inst th2 pts : check_relu_equiv inst th2 pts = true ->
  same_on_line inst (ri_theta inst) th2.
Proof.
  rewrite /check_relu_equiv => H R x. cbv zeta in H.
  move/andP: H => [H Same]. move/andP: H => [H P2]. move/andP: H => [H P1].
  move/andP: H => [H Hinc]. move/andP: H => [H Hpos]. move/andP: H => [H _].
  move/andP: H => [Hs1 Hs2].
  have Ht := relu_shape_pos _ _ _ Hs1. have Ht2 := relu_shape_pos _ _ _ Hs2.
  have E := @same_at R inst _ _ Ht Ht2 pts Hpos Same.
  move/andP: P1 => [/andP [F1 Pr1] L1]. move/andP: P2 => [/andP [F2 Pr2] L2]. clear Same.
  case: pts Hpos Hinc F1 Pr1 L1 F2 Pr2 L2 E => [| p1 [| p2 rest]] //= Hpos Hinc F1 Pr1 L1 F2 Pr2 L2 E.
  move: (Hpos) (Hinc) => /andP [/Z.ltb_lt H1 /andP [/Z.ltb_lt H2 _]] /andP [/andP [_ Hn] _].
  have Hlt := @lt_points_ratr R p1 p2 H1 H2 Hn.
  case: (boolP (x <= ratr (q_of p2))) => Hx2.
  - apply: (eq_on_at inst _ th2 1 _ _ x Hlt (range_left _ _ _ Hlt Hx2)).
    apply: eq_on_piece => //; apply: E; by [left | right; left].
  - apply: (cover_right inst _ th2 x Ht Ht2 rest p1 p2) => //.
    rewrite -ltNge in Hx2. exact: ltW (lt_trans Hlt Hx2).
Qed.
