/-
NNCert.Tanh (NNCert/Tanh): data checks of the tanh certificates (math.md §4): affine-symmetry
tables of an activation, and the group acting on DAG networks (flips by an affine symmetry,
permutations of interchangeable hidden nodes): applying a group element, classes, freeness,
canonical form, genericity conditions.
Python twin: certify/checker/kernel/tanh.py; Coq twin: coq/NNCert/kernel/Tanh.v. Same names (camelCase
here), same order. A network is dense over its `N` nodes (inputs, hidden, outputs): `adj` row
`q`, column `p` is `1` iff there is an edge `p → q`; rationals are unnormalised pairs
`(num, den)`. That a checked group element keeps the network function is the theorem proved
once over the reals in coq/NNCert/meaning/tanh/TanhSym.v (for any activation with the symmetry).
-/
import NNCert.Lists
import NNCert.Arith
import NNCert.Net
import NNCert.Compind

namespace NNCert

/-- An affine symmetry `ρ(α z + β) = γ ρ(z) + δ` of the activation, entries as rational pairs. -/
structure AffSym where
  alpha : Int × Int
  beta : Int × Int
  gamma : Int × Int
  delta : Int × Int

/-- A DAG network with `nIn` inputs and `nOut` outputs (the hidden nodes in between): `adj`
and `weights` are `N × N` (row = target node), `biases` has one entry per node. -/
structure TanhInstance where
  nIn : Nat
  nOut : Nat
  adj : List (List Int)
  weights : List (List (Int × Int))
  biases : List (Int × Int)

/-- `ratLt a b` holds when `a < b` as rationals (positive denominators). -/
def ratLt (a b : Int × Int) : Bool :=
  decide (a.1 * b.2 < b.1 * a.2)

/-- `ratDiv a b` is `a / b`, with a positive denominator when `a`'s is positive. -/
def ratDiv (a b : Int × Int) : Int × Int :=
  cond (decide (b.1 < 0)) (-(a.1 * b.2), -(a.2 * b.1)) (a.1 * b.2, a.2 * b.1)

/-- `ratPosDen a` holds when the denominator of `a` is positive. -/
def ratPosDen (a : Int × Int) : Bool :=
  decide (0 < a.2)

/-- `affOk s`: positive denominators, `α ≠ 0` and `γ ≠ 0`. -/
def affOk (s : AffSym) : Bool :=
  ratPosDen s.alpha && ratPosDen s.beta && ratPosDen s.gamma && ratPosDen s.delta &&
    nonzeroQ s.alpha && nonzeroQ s.gamma

/-- `affCompose g h` is `g ∘ h`: `(α_g α_h, α_g β_h + β_g, γ_g γ_h, γ_g δ_h + δ_g)`. -/
def affCompose (g h : AffSym) : AffSym :=
  { alpha := qmul g.alpha h.alpha,
    beta := qadd (qmul g.alpha h.beta) g.beta,
    gamma := qmul g.gamma h.gamma,
    delta := qadd (qmul g.gamma h.delta) g.delta }

/-- `affEq g h` holds when the four entries are equal rationals. -/
def affEq (g h : AffSym) : Bool :=
  qeq g.alpha h.alpha && qeq g.beta h.beta && qeq g.gamma h.gamma &&
    qeq g.delta h.delta

/-- `affMem g table` holds when `g` equals some element of `table`. -/
def affMem (g : AffSym) (table : List AffSym) : Bool :=
  match table with
  | [] => false
  | h :: t => affEq g h || affMem g t
termination_by structural table

/-- `allAffOk table` holds when every element is well formed. -/
def allAffOk (table : List AffSym) : Bool :=
  match table with
  | [] => true
  | g :: t => affOk g && allAffOk t
termination_by structural table

/-- `affNodup table` holds when no element of `table` equals a later one.
(`!affMem g t && affNodup t` is `(!(affMem g t)) && affNodup t`: Init/Prelude declares
`notation:max "!" b:40 => not b` and `infixl:35 " && " => and`.) -/
def affNodup (table : List AffSym) : Bool :=
  match table with
  | [] => true
  | g :: t => !affMem g t && affNodup t
termination_by structural table

/-- `composeAllMem g hs table`: `g ∘ h` lies in `table` for every `h` of `hs`. -/
def composeAllMem (g : AffSym) (hs table : List AffSym) : Bool :=
  match hs with
  | [] => true
  | h :: hs' => affMem (affCompose g h) table && composeAllMem g hs' table
termination_by structural hs

/-- `tableClosed gs table`: `g ∘ h` lies in `table` for every `g` of `gs`, `h` of `table`. -/
def tableClosed (gs table : List AffSym) : Bool :=
  match gs with
  | [] => true
  | g :: gs' => composeAllMem g table table && tableClosed gs' table
termination_by structural gs

/-- `checkAffsymTable table closed`: every element well formed and listed once; when `closed`,
the identity is listed and the table is closed under composition (a finite subset of the affine group closed
under composition is a subgroup). -/
def checkAffsymTable (table : List AffSym) (closed : Bool) : Bool :=
  allAffOk table && affNodup table &&
    (!closed ||
      (affMem { alpha := (1, 1), beta := (0, 1), gamma := (1, 1), delta := (0, 1) } table &&
        tableClosed table table))

/-- `rowOk q nIn nSrc arow wrow p`: row `q` from column `p` on has `0/1` entries, edges only
from earlier input or hidden nodes (`p < q`, `p < nSrc`) into hidden or output nodes
(`nIn ≤ q`), a zero weight without an edge, positive denominators, equal lengths. -/
def rowOk (q nIn nSrc : Nat) (arow : List Int) (wrow : List (Int × Int)) (p : Nat) : Bool :=
  match arow, wrow with
  | [], [] => true
  | a :: arow', w :: wrow' =>
    (decide (a = 0) || (decide (a = 1) && Nat.ble nIn q && Nat.blt p q && Nat.blt p nSrc)) &&
      ratPosDen w && (decide (a = 1) || decide (w.1 = 0)) &&
      rowOk q nIn nSrc arow' wrow' (p + 1)
  | _, _ => false
termination_by structural arow

/-- `rowsOk q nIn nSrc size adj ws`: every row from `q` on has `size` entries and passes
`rowOk`; equal lengths. -/
def rowsOk (q nIn nSrc size : Nat) (adj : List (List Int)) (ws : List (List (Int × Int))) :
    Bool :=
  match adj, ws with
  | [], [] => true
  | a :: adj', w :: ws' =>
    Nat.beq a.length size && Nat.beq w.length size && rowOk q nIn nSrc a w 0 &&
      rowsOk (q + 1) nIn nSrc size adj' ws'
  | _, _ => false
termination_by structural adj

/-- `wellFormed inst`: `N = biases.length` nodes, `N × N` adjacency and weights, a
topologically numbered DAG from inputs/hidden nodes into hidden/output nodes. -/
def wellFormed (inst : TanhInstance) : Bool :=
  let size := inst.biases.length
  Nat.ble (inst.nIn + inst.nOut) size && Nat.beq inst.adj.length size &&
    ratsPos inst.biases &&
    rowsOk 0 inst.nIn (size - inst.nOut) size inst.adj inst.weights

/-- `fixesIo v nIn nHidEnd perm flips`: from node `v` on, inputs (`v < nIn`) and outputs
(`v ≥ nHidEnd`) are fixed by `perm` and not flipped; equal lengths. -/
def fixesIo (v nIn nHidEnd : Nat) (perm : List Nat) (flips : List Bool) : Bool :=
  match perm, flips with
  | [], [] => true
  | pv :: perm', f :: flips' =>
    ((Nat.ble nIn v && Nat.blt v nHidEnd) || (Nat.beq pv v && !f)) &&
      fixesIo (v + 1) nIn nHidEnd perm' flips'
  | _, _ => false
termination_by structural perm

/-- `classStable perm c vs`: `perm` maps every node of `vs` into the class `c`. -/
def classStable (perm c vs : List Nat) : Bool :=
  match vs with
  | [] => true
  | v :: vs' => memNat (nthNat perm v) c && classStable perm c vs'
termination_by structural vs

/-- `permInClasses perm cs`: `perm` maps every class of `cs` into (so, being injective, onto)
itself. -/
def permInClasses (perm : List Nat) (cs : List (List Nat)) : Bool :=
  match cs with
  | [] => true
  | c :: cs' => classStable perm c c && permInClasses perm cs'
termination_by structural cs

/-- `elementOk inst cs flips perm`: a permutation of the `N` nodes fixing inputs and outputs
and mapping every class of `cs` onto itself, flips only on hidden nodes (that `cs` are the
classes of `inst`, `checkClasses`, is the caller's to check). -/
def elementOk (inst : TanhInstance) (cs : List (List Nat)) (flips : List Bool)
    (perm : List Nat) : Bool :=
  let size := inst.biases.length
  Nat.beq perm.length size && allLt size perm && nodupNat perm &&
    fixesIo 0 inst.nIn (size - inst.nOut) perm flips && permInClasses perm cs

/-- `biasShift s wrow flips` is the sum over flipped predecessors `p` of `w_pq δ / γ`. -/
def biasShift (s : AffSym) (wrow : List (Int × Int)) (flips : List Bool) : Int × Int :=
  match wrow, flips with
  | w :: wrow', f :: flips' =>
    cond f (qadd (ratDiv (qmul w s.delta) s.gamma) (biasShift s wrow' flips'))
      (biasShift s wrow' flips')
  | _, _ => (0, 1)
termination_by structural wrow

/-- `newWeight s fq fp w`: `w / γ` when `p` is flipped, then times `α` when `q` is. -/
def newWeight (s : AffSym) (fq fp : Bool) (w : Int × Int) : Int × Int :=
  let w1 := cond fp (ratDiv w s.gamma) w
  cond fq (qmul s.alpha w1) w1

/-- `newBias s fq b shift`: `b - shift`, then `α (b - shift) + β` when `q` is flipped. -/
def newBias (s : AffSym) (fq : Bool) (b shift : Int × Int) : Int × Int :=
  let b1 := qadd b (qneg shift)
  cond fq (qadd (qmul s.alpha b1) s.beta) b1

/-- `rowMaps s fq arow wrow flips perm arow2 wrow2`: for every `p`,
`adj2[π q][π p] = adj[q][p]` and `W2[π q][π p] = newWeight`; equal lengths. -/
def rowMaps (s : AffSym) (fq : Bool) (arow : List Int) (wrow : List (Int × Int))
    (flips : List Bool) (perm : List Nat) (arow2 : List Int) (wrow2 : List (Int × Int)) : Bool :=
  match arow, wrow, flips, perm with
  | [], [], [], [] => true
  | a :: arow', w :: wrow', fp :: flips', pp :: perm' =>
    decide (nth arow2 pp = a) && qeq (nthQ wrow2 pp) (newWeight s fq fp w) &&
      rowMaps s fq arow' wrow' flips' perm' arow2 wrow2
  | _, _, _, _ => false
termination_by structural arow

/-- `mapsFrom s flips perm inst2 adj ws bs fl pm`: the rows `q` (walked with their bias,
flip and image) map to the rows and biases of `π q` in `inst2`; equal lengths. -/
def mapsFrom (s : AffSym) (flips : List Bool) (perm : List Nat)
    (inst2 : TanhInstance) (adj : List (List Int)) (ws : List (List (Int × Int)))
    (bs : List (Int × Int)) (fl : List Bool) (pm : List Nat) : Bool :=
  match bs, adj, ws, fl, pm with
  | [], [], [], [], [] => true
  | b :: bs', arow :: adj', wrow :: ws', fq :: fl', pq :: pm' =>
    rowMaps s fq arow wrow flips perm (nthRow inst2.adj pq) (nthRow inst2.weights pq) &&
      qeq (nthQ inst2.biases pq) (newBias s fq b (biasShift s wrow flips)) &&
      mapsFrom s flips perm inst2 adj' ws' bs' fl' pm'
  | _, _, _, _, _ => false
termination_by structural bs

/-- `checkApply s inst cs flips perm inst2`: `inst2` is `(flips, perm) · inst` exactly, for a
group element of the classes `cs`. -/
def checkApply (s : AffSym) (inst : TanhInstance) (cs : List (List Nat)) (flips : List Bool)
    (perm : List Nat) (inst2 : TanhInstance) : Bool :=
  affOk s && wellFormed inst && wellFormed inst2 && Nat.beq inst.nIn inst2.nIn &&
    Nat.beq inst.nOut inst2.nOut && Nat.beq inst.biases.length inst2.biases.length &&
    elementOk inst cs flips perm &&
    mapsFrom s flips perm inst2 inst.adj inst.weights inst.biases flips perm

/-- `sameNbhd inst u v`: `u` and `v` have the same predecessors and successors. -/
def sameNbhd (inst : TanhInstance) (u v : Nat) : Bool :=
  zlistEq (nthRow inst.adj u) (nthRow inst.adj v) &&
    zlistEq (column inst.adj u) (column inst.adj v)

/-- `increasingNats xs` holds when every entry is below the next. -/
def increasingNats (xs : List Nat) : Bool :=
  match xs with
  | [] => true
  | x :: xs' =>
    (match xs' with
      | [] => true
      | y :: _ => Nat.blt x y) && increasingNats xs'
termination_by structural xs

/-- `allSameNbhd inst u vs`: every `v` of `vs` is interchangeable with `u`. -/
def allSameNbhd (inst : TanhInstance) (u : Nat) (vs : List Nat) : Bool :=
  match vs with
  | [] => true
  | v :: vs' => sameNbhd inst u v && allSameNbhd inst u vs'
termination_by structural vs

/-- `classOk inst c`: a nonempty increasing class, every member interchangeable with the
first. -/
def classOk (inst : TanhInstance) (c : List Nat) : Bool :=
  !(Nat.beq c.length 0) && increasingNats c && allSameNbhd inst (nthNat c 0) c

/-- `classesOk inst cs`: `classOk` for every class. -/
def classesOk (inst : TanhInstance) (cs : List (List Nat)) : Bool :=
  match cs with
  | [] => true
  | c :: cs' => classOk inst c && classesOk inst cs'
termination_by structural cs

/-- `headApart inst v ds`: `v` is not interchangeable with the first member of any class of
`ds`. -/
def headApart (inst : TanhInstance) (v : Nat) (ds : List (List Nat)) : Bool :=
  match ds with
  | [] => true
  | d :: ds' => !(sameNbhd inst v (nthNat d 0)) && headApart inst v ds'
termination_by structural ds

/-- `headsDistinct inst cs`: first members of different classes are not interchangeable
(the classes are maximal). -/
def headsDistinct (inst : TanhInstance) (cs : List (List Nat)) : Bool :=
  match cs with
  | [] => true
  | c :: cs' => headApart inst (nthNat c 0) cs' && headsDistinct inst cs'
termination_by structural cs

/-- `flatten cs` is the concatenation of the classes. -/
def flatten (cs : List (List Nat)) : List Nat :=
  match cs with
  | [] => []
  | c :: cs' => c ++ flatten cs'
termination_by structural cs

/-- `allMem xs ys` holds when every entry of `xs` occurs in `ys`. -/
def allMem (xs ys : List Nat) : Bool :=
  match xs with
  | [] => true
  | x :: xs' => memNat x ys && allMem xs' ys
termination_by structural xs

/-- `isPermOf xs ys`: same length, no repetition in `xs`, every entry of `xs` in `ys`. -/
def isPermOf (xs ys : List Nat) : Bool :=
  Nat.beq xs.length ys.length && nodupNat xs && allMem xs ys

/-- `checkClasses inst cs`: `cs` partitions the hidden nodes into the maximal classes of
interchangeable nodes. -/
def checkClasses (inst : TanhInstance) (cs : List (List Nat)) : Bool :=
  let size := inst.biases.length
  wellFormed inst && isPermOf (flatten cs) (rangeNat inst.nIn (size - inst.nIn - inst.nOut)) &&
    classesOk inst cs && headsDistinct inst cs

/-- `factorial n` is `n!`. -/
def factorial (n : Nat) : Nat :=
  match n with
  | 0 => 1
  | k + 1 => (k + 1) * factorial k
termination_by structural n

/-- `groupOrderFrom cs` is `Π |C|!` over the classes. -/
def groupOrderFrom (cs : List (List Nat)) : Nat :=
  match cs with
  | [] => 1
  | c :: cs' => factorial c.length * groupOrderFrom cs'
termination_by structural cs

/-- `groupOrder order hidden cs` is `|G_ρ|^H · Π |C|!`. -/
def groupOrder (order hidden : Nat) (cs : List (List Nat)) : Nat :=
  order ^ hidden * groupOrderFrom cs

/-- `nodeKey inst v`: the incoming weights of `v` (all `N` nodes), then its bias. -/
def nodeKey (inst : TanhInstance) (v : Nat) : List (Int × Int) :=
  nthRow inst.weights v ++ [nthQ inst.biases v]

/-- `flippedKey s inst v`: the key of `v` after flipping `v` alone, `(α w, α b + β)`. -/
def flippedKey (s : AffSym) (inst : TanhInstance) (v : Nat) : List (Int × Int) :=
  (nthRow inst.weights v).map (fun w => qmul s.alpha w) ++
    [qadd (qmul s.alpha (nthQ inst.biases v)) s.beta]

/-- `keyLt a b`: `a < b` lexicographically on the common length. -/
def keyLt (a b : List (Int × Int)) : Bool :=
  match a, b with
  | x :: a', y :: b' => ratLt x y || (qeq x y && keyLt a' b')
  | _, _ => false
termination_by structural a

/-- `pairFree s flip inst u vs`: no `v` of `vs` has `u`'s key, nor (with flips) a flipped key
equal to it. -/
def pairFree (s : AffSym) (flip : Bool) (inst : TanhInstance) (u : Nat) (vs : List Nat) :
    Bool :=
  match vs with
  | [] => true
  | v :: vs' =>
    !(qeqAll (nodeKey inst u) (nodeKey inst v)) &&
      !(flip && qeqAll (nodeKey inst u) (flippedKey s inst v)) &&
      pairFree s flip inst u vs'
termination_by structural vs

/-- `freeClass s flip inst c`: no member fixed by its flip, no two with keys equal up to it. -/
def freeClass (s : AffSym) (flip : Bool) (inst : TanhInstance) (c : List Nat) : Bool :=
  match c with
  | [] => true
  | u :: c' =>
    !(flip && qeqAll (flippedKey s inst u) (nodeKey inst u)) && pairFree s flip inst u c' &&
      freeClass s flip inst c'
termination_by structural c

/-- `checkFree s flip inst cs`: the group acts freely at `inst` (so the orbit has
`groupOrder` elements). -/
def checkFree (s : AffSym) (flip : Bool) (inst : TanhInstance) (cs : List (List Nat)) : Bool :=
  match cs with
  | [] => true
  | c :: cs' => freeClass s flip inst c && checkFree s flip inst cs'
termination_by structural cs

/-- `canonicalClass s flip inst c`: members sign-normalised (flipped key strictly smaller)
and keys strictly decreasing along the class. -/
def canonicalClass (s : AffSym) (flip : Bool) (inst : TanhInstance) (c : List Nat) : Bool :=
  match c with
  | [] => true
  | u :: c' =>
    (!flip || keyLt (flippedKey s inst u) (nodeKey inst u)) &&
      (match c' with
        | [] => true
        | v :: _ => keyLt (nodeKey inst v) (nodeKey inst u)) &&
      canonicalClass s flip inst c'
termination_by structural c

/-- `checkCanonical s flip inst cs`: `inst` is in canonical form, the only one of its orbit. -/
def checkCanonical (s : AffSym) (flip : Bool) (inst : TanhInstance) (cs : List (List Nat)) :
    Bool :=
  match cs with
  | [] => true
  | c :: cs' => canonicalClass s flip inst c && checkCanonical s flip inst cs'
termination_by structural cs

/-- `rowsKeyEq a b`: same number of rows, `qeqAll` row by row. -/
def rowsKeyEq (a b : List (List (Int × Int))) : Bool :=
  match a, b with
  | [], [] => true
  | x :: a', y :: b' => qeqAll x y && rowsKeyEq a' b'
  | _, _ => false
termination_by structural a

/-- `adjEq a b`: equal adjacency matrices. -/
def adjEq (a b : List (List Int)) : Bool :=
  match a, b with
  | [], [] => true
  | x :: a', y :: b' => zlistEq x y && adjEq a' b'
  | _, _ => false
termination_by structural a

/-- `sameInstance a b`: equal as networks (weights and biases as rationals). -/
def sameInstance (a b : TanhInstance) : Bool :=
  Nat.beq a.nIn b.nIn && Nat.beq a.nOut b.nOut && adjEq a.adj b.adj &&
    rowsKeyEq a.weights b.weights && qeqAll a.biases b.biases

/-- `sameGraph a b`: the same nodes and the same edges (weights and biases may differ). -/
def sameGraph (a b : TanhInstance) : Bool :=
  Nat.beq a.nIn b.nIn && Nat.beq a.nOut b.nOut && adjEq a.adj b.adj

/-- `hasEdgeFrom v adj`: some edge leaves `v`. -/
def hasEdgeFrom (v : Nat) (adj : List (List Int)) : Bool :=
  match adj with
  | [] => false
  | arow :: adj' => decide (nth arow v = 1) || hasEdgeFrom v adj'
termination_by structural adj

/-- `outsNonzero v adj ws`: every edge out of `v` has a nonzero weight; equal lengths. -/
def outsNonzero (v : Nat) (adj : List (List Int)) (ws : List (List (Int × Int))) : Bool :=
  match adj, ws with
  | [], [] => true
  | arow :: adj', wrow :: ws' =>
    (!(decide (nth arow v = 1)) || !(decide ((nthQ wrow v).1 = 0))) && outsNonzero v adj' ws'
  | _, _ => false
termination_by structural adj

/-- `anyNonzero ws`: some entry has a nonzero numerator. -/
def anyNonzero (ws : List (Int × Int)) : Bool :=
  match ws with
  | [] => false
  | w :: ws' => !(decide (w.1 = 0)) || anyNonzero ws'
termination_by structural ws

/-- `hiddenGeneric inst vs`: every `v` of `vs` has an outgoing edge, no zero outgoing weight
and a nonzero incoming weight. -/
def hiddenGeneric (inst : TanhInstance) (vs : List Nat) : Bool :=
  match vs with
  | [] => true
  | v :: vs' =>
    hasEdgeFrom v inst.adj && outsNonzero v inst.adj inst.weights &&
      anyNonzero (nthRow inst.weights v) && hiddenGeneric inst vs'
termination_by structural vs

/-- `checkSussmann s inst cs`: Sussmann's irreducibility conditions (one hidden layer). -/
def checkSussmann (s : AffSym) (inst : TanhInstance) (cs : List (List Nat)) : Bool :=
  hiddenGeneric inst (rangeNat inst.nIn (inst.biases.length - inst.nIn - inst.nOut)) &&
    checkFree s true inst cs

/-- `absQ a` is `|a|` (positive denominator). -/
def absQ (a : Int × Int) : Int × Int :=
  (Int.ofNat a.1.natAbs, a.2)

/-- `absApart inst b vs`: `|b|` differs from `|b_v|` for every `v` of `vs`. -/
def absApart (inst : TanhInstance) (b : Int × Int) (vs : List Nat) : Bool :=
  match vs with
  | [] => true
  | v :: vs' => !(qeq (absQ b) (absQ (nthQ inst.biases v))) && absApart inst b vs'
termination_by structural vs

/-- `biasesDistinct inst c`: nonzero biases with pairwise distinct absolute values. -/
def biasesDistinct (inst : TanhInstance) (c : List Nat) : Bool :=
  match c with
  | [] => true
  | u :: c' =>
    !(decide ((nthQ inst.biases u).1 = 0)) && absApart inst (nthQ inst.biases u) c' &&
      biasesDistinct inst c'
termination_by structural c

/-- `rowEdgesNonzero arow wrow`: every edge of the row has a nonzero weight. -/
def rowEdgesNonzero (arow : List Int) (wrow : List (Int × Int)) : Bool :=
  match arow, wrow with
  | a :: arow', w :: wrow' => (decide (a = 0) || !(decide (w.1 = 0))) && rowEdgesNonzero arow' wrow'
  | _, _ => true
termination_by structural arow

/-- `edgesNonzeroRows adj ws`: `rowEdgesNonzero` for every row. -/
def edgesNonzeroRows (adj : List (List Int)) (ws : List (List (Int × Int))) : Bool :=
  match adj, ws with
  | a :: adj', w :: ws' => rowEdgesNonzero a w && edgesNonzeroRows adj' ws'
  | _, _ => true
termination_by structural adj

/-- `allEdgesNonzero inst`: every edge weight is nonzero. -/
def allEdgesNonzero (inst : TanhInstance) : Bool :=
  edgesNonzeroRows inst.adj inst.weights

/-- `allBiasesDistinct inst cs`: `biasesDistinct` in every class. -/
def allBiasesDistinct (inst : TanhInstance) (cs : List (List Nat)) : Bool :=
  match cs with
  | [] => true
  | c :: cs' => biasesDistinct inst c && allBiasesDistinct inst cs'
termination_by structural cs

/-- `checkFefferman inst cs`: Fefferman-type genericity (deep nets). -/
def checkFefferman (inst : TanhInstance) (cs : List (List Nat)) : Bool :=
  allEdgesNonzero inst && allBiasesDistinct inst cs

/-- `bandRow lo hi ps`: `1` at the columns `p` of `ps` with `lo ≤ p < hi`, else `0`. -/
def bandRow (lo hi : Nat) (ps : List Nat) : List Int :=
  match ps with
  | [] => []
  | p :: ps' => (cond (Nat.ble lo p && Nat.blt p hi) 1 0) :: bandRow lo hi ps'
termination_by structural ps

/-- `repeatRow k row`: `k` copies of `row`. -/
def repeatRow (k : Nat) (row : List Int) : List (List Int) :=
  match k with
  | 0 => []
  | k' + 1 => row :: repeatRow k' row
termination_by structural k

/-- `layersAdj lo pw size widths`: the adjacency rows of the layers `widths`, the previous
layer being the `pw` nodes from `lo`: full connections between consecutive layers only. -/
def layersAdj (lo pw size : Nat) (widths : List Nat) : List (List Int) :=
  match widths with
  | [] => []
  | w :: widths' =>
    repeatRow w (bandRow lo (lo + pw) (rangeNat 0 size)) ++ layersAdj (lo + pw) w size widths'
termination_by structural widths

/-- `widthsSum widths` is the sum of the widths. -/
def widthsSum (widths : List Nat) : Nat :=
  match widths with
  | [] => 0
  | w :: widths' => w + widthsSum widths'
termination_by structural widths

/-- `checkLayered widths inst`: `inst` is the fully connected layered MLP of `widths` (at
least one hidden layer). -/
def checkLayered (widths : List Nat) (inst : TanhInstance) : Bool :=
  let size := inst.biases.length
  Nat.blt 2 widths.length && Nat.beq (widthsSum widths) size &&
    Nat.beq (firstWidth widths) inst.nIn && Nat.beq (lastWidth widths) inst.nOut &&
    adjEq inst.adj (layersAdj 0 0 size widths)

/-- `checkOrbit s flip inst cs flips perm canon free order`: the classes, a representative
reached by a checked group element, the group order; when `free`, freeness and the
representative's canonical form (unique in a free orbit). -/
def checkOrbit (s : AffSym) (flip : Bool) (inst : TanhInstance) (cs : List (List Nat))
    (flips : List Bool) (perm : List Nat) (canon : TanhInstance) (free : Bool) (order : Nat) :
    Bool :=
  let hidden := inst.biases.length - inst.nIn - inst.nOut
  checkClasses inst cs && checkApply s inst cs flips perm canon &&
    Nat.beq order (groupOrder (cond flip 2 1) hidden cs) &&
    (!free || (checkFree s flip inst cs && checkCanonical s flip canon cs))

/-- `checkEquivalent s inst1 inst2 cs flips perm`: the same graph, `cs` its classes, and a
group element maps `inst1` exactly onto `inst2`. -/
def checkEquivalent (s : AffSym) (inst1 inst2 : TanhInstance) (cs : List (List Nat))
    (flips : List Bool) (perm : List Nat) : Bool :=
  checkClasses inst1 cs && sameGraph inst1 inst2 && checkApply s inst1 cs flips perm inst2

/-- `checkInequivalent s flip inst1 inst2 cs flips1 perm1 canon1 flips2 perm2 canon2`: the
same graph with classes `cs`; both networks reach canonical forms by checked group elements,
and the forms differ. -/
def checkInequivalent (s : AffSym) (flip : Bool) (inst1 inst2 : TanhInstance)
    (cs : List (List Nat)) (flips1 : List Bool) (perm1 : List Nat) (canon1 : TanhInstance)
    (flips2 : List Bool) (perm2 : List Nat) (canon2 : TanhInstance) : Bool :=
  checkClasses inst1 cs && checkClasses inst2 cs && sameGraph inst1 inst2 &&
    checkClasses canon1 cs && checkClasses canon2 cs &&
    checkApply s inst1 cs flips1 perm1 canon1 && checkApply s inst2 cs flips2 perm2 canon2 &&
    checkCanonical s flip canon1 cs && checkCanonical s flip canon2 cs &&
    !(sameInstance canon1 canon2)

end NNCert
