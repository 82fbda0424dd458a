"""The Coq assumption audit: one driver file, one awk program, used alike by the bundle's
`coq/build.sh` (coqc alone) and by certify (provers/coq.py).

The driver (`Audit.v`) first defines `nncert_allowed`, a tuple naming, by absolute name, every
primitive that Coq 8.16 declares in `Coq.Numbers.Cyclic.Int63.PrimInt63` and every
specification axiom of those primitives in `Coq.Numbers.Cyclic.Int63.Uint63` (each says what
one native operation computes, e.g. add_spec: to_Z (x + y) = (to_Z x + to_Z y) mod 2^63). It is
defined before any certificate is loaded, so no certificate can change what it names. The driver
then `Require`s (never `Import`s) the certificate modules, states the meaning theorems of rank
certificates itself in absolute names without notations (`Definition nncert_statement_i : <the
statement> := Certificates.M.rank_lower.`: a certificate that redefines `mlp_jacobian`,
`\\rank` or `<=` locally proves a different statement and the driver does not typecheck; Coq
refuses to mask an absolute name), defines `nncert_audited`, the tuple of every audited theorem
by its full name, and runs `Print Assumptions` on `nncert_allowed`, then on `nncert_audited`,
with no declaration in between.

Why one tuple: `Print Assumptions` walks the whole dependency graph of its argument, and for a
meaning theorem that graph is MathComp (about 0.8 s per walk, against milliseconds for the
kernel check itself). The assumptions of a tuple are the union of those of its components (the
walk collects every constant the term mentions, transitively), so one walk over the tuple
audits every theorem of the bundle at the cost of about one. A failure names no theorem;
certify then audits certificate by certificate to say which one (provers/coq.py).

The audited theorems of a certificate are the ones its rendered file marks with a comment
`(* audited: NAME *)` (the templates' list; read from the faithful rendered text, never from a
file under audit), plus its meaning theorems (`statements`) even if unmarked.

`Print Assumptions` prints each assumption as `name : type` under the shortest name that denotes
it in the current context, so within one context two different constants never print alike.
The awk program (AUDIT_AWK) accepts the audited tuple iff its answer is "Closed under the global
context" or lists only entries (name and type, as printed) that also occur in the answer for
`nncert_allowed`. Anything else fails with a message: another axiom (a local `PrimInt63.cheat`
prints as `M.PrimInt63.cheat`, a local `Uint63.add_spec : False` differs in name and type),
`... is assumed to be guarded` (Unset Guard Checking, #[bypass_check(guard)]), `... is assumed
to be positive`, `... relies on an unsafe hierarchy` (universe checking off), a missing theorem
(the driver does not compile), or an answer count that differs from the driver's. As defence
in depth, source files that turn a kernel check off (UNSAFE_SOURCE) are rejected before
compiling."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from certify.provers.coq_library import qualified

PRIM = "Coq.Numbers.Cyclic.Int63.PrimInt63"
UINT = "Coq.Numbers.Cyclic.Int63.Uint63"
# The `Primitive` declarations of Coq 8.16's theories/Numbers/Cyclic/Int63/PrimInt63.v.
PRIMITIVES = (
    "int lsl lsr land lor lxor asr add sub mul mulc div mod divs mods eqb ltb leb ltsb lesb "
    "addc addcarryc subc subcarryc diveucl diveucl_21 addmuldiv compare compares head0 tail0"
).split()
# The `Axiom` declarations of Coq 8.16's theories/Numbers/Cyclic/Int63/Uint63.v.
UINT63_SPECS = (
    "of_to_Z lsl_spec lsr_spec land_spec lor_spec lxor_spec add_spec sub_spec mul_spec "
    "mulc_spec div_spec mod_spec eqb_correct eqb_refl ltb_spec leb_spec compare_def_spec "
    "head0_spec tail0_spec addc_def_spec addcarryc_def_spec subc_def_spec "
    "subcarryc_def_spec diveucl_def_spec diveucl_21_spec addmuldiv_def_spec"
).split()
ALLOWED_FULL = [f"{PRIM}.{n}" for n in PRIMITIVES] + [f"{UINT}.{n}" for n in UINT63_SPECS]
# How they print in the driver's context (for the names recorded in the manifest).
ALLOWED_NAMES = frozenset(
    [f"PrimInt63.{n}" for n in PRIMITIVES] + [f"Uint63.{n}" for n in UINT63_SPECS]
)
# The axioms of Coq 8.16's real numbers (theories/Reals: ClassicalDedekindReals, and the
# functional extensionality and excluded middle its constructions use), allowed only for the
# theorems over the reals (Theorem.reals: the affine-symmetry identities of
# coq/NNCert/meaning/tanh/AffsymMeaning.v), audited in a group of their own so that no rank
# theorem may use
# them.
REALS_FULL = [
    "Coq.Reals.ClassicalDedekindReals.sig_not_dec",
    "Coq.Reals.ClassicalDedekindReals.sig_forall_dec",
    "@Coq.Logic.FunctionalExtensionality.functional_extensionality_dep",  # implicit A, B
    "Coq.Logic.Classical_Prop.classic",
]
REALS_NAMES = frozenset(
    [
        "ClassicalDedekindReals.sig_not_dec",
        "ClassicalDedekindReals.sig_forall_dec",
        "FunctionalExtensionality.functional_extensionality_dep",
        "Classical_Prop.classic",
    ]
)
REFERENCE = "nncert_allowed"
AUDITED = "nncert_audited"
REFERENCE_REALS = "nncert_allowed_reals"
AUDITED_REALS = "nncert_audited_reals"
DRIVER = "Audit.v"
AWK_FILE = "audit.awk"
# Commands that turn a kernel check off (Print Assumptions reports their effect too).
UNSAFE_SOURCE = re.compile(
    r"Unset\s+(Guard|Positivity|Universe)\s+Checking|bypass_check|Local\s+Unset\s+\w+\s+Checking"
)
UNSAFE_GREP = (
    "Unset[[:space:]]+(Guard|Positivity|Universe)[[:space:]]+Checking|bypass_check|"
    "Local[[:space:]]+Unset[[:space:]]+[A-Za-z]+[[:space:]]+Checking"
)

# In a certificate (never in the templates): a declaration of an assumption.
ASSUMPTION_SOURCE = re.compile(
    r"^\s*(Axiom|Axioms|Parameter|Parameters|Conjecture|Hypothesis|Hypotheses|Variable|"
    r"Variables|Context)\b|\bAdmitted\b|\badmit\b"
)
ASSUMPTION_GREP = (
    "^[[:space:]]*(Axioms?|Parameters?|Conjecture|Hypothesis|Hypotheses|Variables?|Context)"
    "([^A-Za-z0-9_]|$)|Admitted|admit([^A-Za-z0-9_]|$)"
)

_IS_TRUE = "Coq.Init.Datatypes.is_true"
_LEQ = "mathcomp.ssreflect.ssrnat.leq"
_RANK = "@mathcomp.algebra.mxalgebra.mxrank mathcomp.algebra.rat.rat_fieldType _ _"


@dataclass(frozen=True)
class Theorem:
    """A theorem of a certificate module, and (for the meaning theorems) the statement the
    driver expects it to prove, a Coq term in absolute names without notations."""

    module: str  # e.g. "Certificates.Rank_ktb_2_2_1"
    name: str
    statement: str | None = None
    reals: bool = False  # a theorem over Coq's reals: their axioms are allowed (REALS_FULL)

    @property
    def full(self) -> str:
        return f"{self.module}.{self.name}"


def _le(a: str, b: str) -> str:
    return f"{_IS_TRUE} ({_LEQ} {a} {b})"


def statements(cert: dict[str, Any], mod: str) -> dict[str, str]:
    """Theorem name -> the statement the driver expects it to prove, for the meaning theorems
    of `cert` (module `mod`): composition facts (`dependence_statements`,
    `hypotheses_statements`), MLP and ReLU equivalences, ResNet orbits, the coefficients of a
    scalar ResNet (`scalar_statements`), affsym elements (`affsym_statements`), and here a
    rank certificate's.

    A rank certificate's `rank_lower` and `rank_upper` (the templates' theorems) are
    r <= rank J and rank J' <= u, J the Jacobian of NNCert/meaning/RankMeaning.v at the
    certificate's instance: the samples for the lower bound; for MLP and ResNet the lattice
    {x in N^d : |x| <= D} for the upper bound, for ReLU its batch. MLP and ResNet certificates
    also have `rank_lower_generic` (`_generic_statement`). An MLP certificate with a
    functional dimension fd also has fd <= rank J (`functional_dimension_le_rank`) and, when
    its upper bound is made of the symmetry tangents, rank J' <= fd."""
    if cert.get("kind") in ("compind", "newman-slater", "prop21", "mlp-identifiable"):
        return {**dependence_statements(cert, mod), **hypotheses_statements(cert, mod)}
    if (cert.get("family"), cert.get("kind")) == ("mlp", "equiv"):
        return equiv_statements(cert, mod)
    if (cert.get("family"), cert.get("kind")) == ("relu", "equiv"):
        return relu_equiv_statements(cert, mod)
    if (cert.get("family"), cert.get("kind")) == ("resnet", "orbit"):
        return {**orbit_statements(cert, mod), **scalar_statements(cert, mod)}
    if (cert.get("family"), cert.get("kind")) == ("resnet", "critical"):
        return scalar_statements(cert, mod)
    if (cert.get("family"), cert.get("kind")) == ("resnet", "implicit"):
        return {**implicit_statements(mod), **scalar_statements(cert, mod)}
    if (cert.get("family"), cert.get("kind")) == ("tanh", "affsym"):
        return affsym_statements(cert)
    if cert.get("kind") != "rank":
        return {}
    fam = cert.get("family")
    r = int(cert["result"]["rank_lower"])
    up = cert.get("witness", {}).get("upper")
    u = None if up is None else int(up["bound"])
    rank = f"({_RANK} ({{}}))"
    out: dict[str, str] = {}
    # the library's definitions by their full logical names (coq_library.qualified)
    samples = f"({qualified('Rank.lw_samples')} {mod}.lower)"
    lattice_of, degree_of = qualified("Lists.lattice"), qualified("Net.degree_bound")
    if fam in ("mlp", "resnet"):
        if fam == "mlp":
            jac = f"{qualified('RankMeaning.mlp_jacobian')} {mod}.inst"
            width = f"({qualified('Net.first_width')} ({qualified('Rank.widths')} {mod}.inst))"
            acts = f"({qualified('Rank.acts')} {mod}.inst)"
        else:
            jac = f"{qualified('RankMeaning.resnet_jacobian')} {mod}.inst"
            width = f"({qualified('ResNet.rn_width')} {mod}.inst)"
            acts = f"({qualified('ResNet.rn_acts')} {mod}.inst)"
        out["rank_lower"] = _le(f"{r}", rank.format(f"{jac} {samples}"))
        out["rank_lower_generic"] = _generic_statement(fam, mod, r, samples)
        deriv = qualified(f"Differential.{fam}_dir_deriv")
        out["differential_rank_lower"] = (
            f"{qualified('Differential.rank_ge')} ({deriv} {mod}.inst) {r}"
        )
        theta = qualified("Rank.theta" if fam == "mlp" else "ResNet.rn_theta")
        point = f"(Coq.Lists.List.map {qualified('RankMeaning.q_of')} ({theta} {mod}.inst))"
        out["differential_rank_lower_generic"] = (
            f"{qualified('Differential.rank_ge_on_lines')} "
            f"({qualified(f'Differential.{fam}_dir_deriv_at')} {mod}.inst) {point} {r}"
        )
        lattice = f"({lattice_of} {width} ({degree_of} {acts}))"
        if u is not None:
            out["rank_upper"] = _le(rank.format(f"{jac} {lattice}"), f"{u}")
        # result.functional_dimension, where an MLP certificate states one, bounds the same ranks
        fd = cert["result"].get("functional_dimension") if fam == "mlp" else None
        if fd is not None:
            fd = int(fd)
            out["functional_dimension_le_rank"] = _le(f"{fd}", rank.format(f"{jac} {samples}"))
            if up is not None and up.get("kind") in ("scaling", "symmetry"):
                out["functional_dimension_ge_rank_upper"] = _le(
                    rank.format(f"{jac} {lattice}"), f"{fd}"
                )
    elif fam == "relu":
        batch = f"({qualified('ReLU.rl_batch')} {mod}.lower)"
        jac = rank.format(f"{qualified('RankMeaning.relu_jacobian')} {mod}.inst {batch}")
        generic = f"{qualified('RankMeaning.relu_batch_generic')} {mod}.inst {batch}"
        out["rank_lower"] = f"Coq.Init.Logic.and ({generic}) ({_le(f'{r}', jac)})"
        if u is not None:
            out["rank_upper"] = _le(jac, f"{u}")
    return out


def _generic_statement(fam: str, mod: str, r: int, samples: str) -> str:
    """`rank_lower_generic` of an MLP / ResNet rank certificate (NNCert/meaning/GenericRank.v):
    for every rational direction v there is an N such that every duplicate-free list of
    rationals t with rank J(theta + t v) < r has at most N elements, J the Jacobian at the
    certificate's samples (`mlp_jacobian_at` / `resnet_jacobian_at`)."""
    rat, nat = "mathcomp.algebra.rat.rat", "Coq.Init.Datatypes.nat"
    seq = "mathcomp.ssreflect.seq"
    jac_at = qualified(f"GenericRank.{fam}_jacobian_at")
    theta = qualified("Rank.theta" if fam == "mlp" else "ResNet.rn_theta")
    point = (
        f"({qualified('GenericRank.on_line')} (Coq.Lists.List.map "
        f"{qualified('RankMeaning.q_of')} ({theta} {mod}.inst)) v t)"
    )
    rank = f"{_RANK} ({jac_at} {mod}.inst {point} {samples})"
    below = f"{_LEQ} (Coq.Init.Datatypes.S ({rank})) {r}"  # a bool: all's predicate
    return (
        f"forall v : Coq.Init.Datatypes.list {rat}, Coq.Init.Logic.ex (fun N : {nat} => "
        f"forall ts : Coq.Init.Datatypes.list {rat}, "
        f"{_IS_TRUE} (@{seq}.uniq mathcomp.algebra.rat.rat_eqType ts) -> "
        f"{_IS_TRUE} (@{seq}.all {rat} (fun t : {rat} => {below}) ts) -> "
        f"{_le(f'(@{seq}.size {rat} ts)', 'N')})"
    )


def equiv_statements(cert: dict[str, Any], mod: str) -> dict[str, str]:
    """The statement of an MLP equivalence certificate's lemma in absolute names: the kernel's
    `check_mlp_same inst other` (or `check_mlp_differ inst other x`) is true, so a file that
    redefines the check locally proves another statement and the driver fails."""
    eq = "@Coq.Init.Logic.eq Coq.Init.Datatypes.bool"
    eq_q = "@Coq.Init.Logic.eq (Coq.Init.Datatypes.list mathcomp.algebra.rat.rat)"
    fun = qualified("EquivMeaning.mlp_fun")
    theta = f"({qualified('Rank.theta')} {mod}.inst)"
    if (cert.get("witness") or {}).get("kind") == "differ":
        check = f"{qualified('Rank.check_mlp_differ')} {mod}.inst {mod}.other {mod}.x"
        values = f"({fun} {mod}.inst {theta} {mod}.x) ({fun} {mod}.inst {mod}.other {mod}.x)"
        return {
            "differ_check": f"{eq} ({check}) Coq.Init.Datatypes.true",
            "differ_at_x": f"Coq.Init.Logic.not ({eq_q} {values})",
        }
    check = f"{qualified('Rank.check_mlp_same')} {mod}.inst {mod}.other"
    width = f"({qualified('Net.first_width')} ({qualified('Rank.widths')} {mod}.inst))"
    degree = f"({qualified('Net.degree_bound')} ({qualified('Rank.acts')} {mod}.inst))"
    lattice = f"({qualified('Lists.lattice')} {width} {degree})"
    values = f"({fun} {mod}.inst {theta} x) ({fun} {mod}.inst {mod}.other x)"
    return {
        "same_check": f"{eq} ({check}) Coq.Init.Datatypes.true",
        "same_on_lattice": f"forall x : Coq.Init.Datatypes.list Coq.Numbers.BinNums.Z, "
        f"Coq.Lists.List.In x {lattice} -> {eq_q} {values}",
    }


def relu_equiv_statements(cert: dict[str, Any], mod: str) -> dict[str, str]:
    """A ReLU equivalence certificate: with a differing input its theorem `differ_at_x`, the
    outputs over Q at x differ (NNCert/meaning/relu/ReLUEquivMeaning.v); with pieces its
    theorem `same_function`, the same outputs at every rational input
    (NNCert/meaning/relu/ReLUPiecesMeaning.v's `same_on_line`); in absolute names."""
    if (cert.get("witness") or {}).get("kind") != "differ":
        theta = f"({qualified('ReLU.ri_theta')} {mod}.inst)"
        same = qualified("ReLUPiecesMeaning.same_on_line")
        return {"same_function": f"{same} {mod}.inst {theta} {mod}.other"}
    eq_q = "@Coq.Init.Logic.eq (Coq.Init.Datatypes.list mathcomp.algebra.rat.rat)"
    fun = qualified("ReLUEquivMeaning.relu_fun")
    theta = f"({qualified('ReLU.ri_theta')} {mod}.inst)"
    values = f"({fun} {mod}.inst {theta} {mod}.x) ({fun} {mod}.inst {mod}.other {mod}.x)"
    return {"differ_at_x": f"Coq.Init.Logic.not ({eq_q} {values})"}


def scalar_statements(cert: dict[str, Any], mod: str) -> dict[str, str]:
    """A scalar ResNet certificate with the coefficients of F_theta (orbit, critical and
    implicit certificates at width one): its theorem `f_coefficients`, F_theta(x) =
    sum_k c_k x^k at every rational x (NNCert/meaning/resnet/ScalarMeaning.v's
    `scalar_coeffs`), in absolute names."""
    if cert["result"].get("F_coefficients") is None:
        return {}
    return {
        "f_coefficients": f"{qualified('ScalarMeaning.scalar_coeffs')} {mod}.inst {mod}.f_coeffs"
    }


def implicit_statements(mod: str) -> dict[str, str]:
    """An implicit-equation certificate: its theorem `image_in_hypersurface`, the coefficients
    of F_theta satisfy the equation at every rational parameter vector that is 0 where not
    free (NNCert/meaning/resnet/ScalarMeaning.v's `implicit_equation`), in absolute names."""
    stmt = qualified("ScalarMeaning.implicit_equation")
    return {"image_in_hypersurface": f"{stmt} {mod}.inst {mod}.free {mod}.degree {mod}.eqn"}


def orbit_statements(cert: dict[str, Any], mod: str) -> dict[str, str]:
    """A real ResNet orbit certificate that ends in `orbit_in_fiber` (the claim says which:
    claims.resnet.orbit_theorem): its check `check_resnet_orbit inst orbit` and the theorem,
    every listed vector gives the outputs of theta over Q at every lattice point and the listed
    vectors are pairwise distinct (NNCert/meaning/resnet/OrbitMeaning.v), in absolute names;
    other orbit certificates end in checks."""
    from certify.checker.check.rank import decode_instance, network_of
    from certify.checker.claims.resnet import orbit_theorem

    if not orbit_theorem(network_of(decode_instance(cert)), cert["result"]):  # type: ignore[arg-type]
        return {}
    eq = "@Coq.Init.Logic.eq Coq.Init.Datatypes.bool"
    eq_q = "@Coq.Init.Logic.eq (Coq.Init.Datatypes.list mathcomp.algebra.rat.rat)"
    z = "Coq.Numbers.BinNums.Z"
    fun = qualified("OrbitMeaning.resnet_fun")
    inst = f"{mod}.inst"
    theta = f"({qualified('ResNet.rn_theta')} {inst})"
    width = f"({qualified('ResNet.rn_width')} {inst})"
    degree = f"({qualified('Net.degree_bound')} ({qualified('ResNet.rn_acts')} {inst}))"
    lattice = f"({qualified('Lists.lattice')} {width} {degree})"
    same = (
        f"forall th : Coq.Init.Datatypes.list (Coq.Init.Datatypes.prod {z} {z}), "
        f"Coq.Lists.List.In th {mod}.orbit -> "
        f"forall x : Coq.Init.Datatypes.list {z}, Coq.Lists.List.In x {lattice} -> "
        f"{eq_q} ({fun} {inst} th x) ({fun} {inst} {theta} x)"
    )
    q_of = qualified("RankMeaning.q_of")
    distinct = f"Coq.Lists.List.NoDup (Coq.Lists.List.map (Coq.Lists.List.map {q_of}) {mod}.orbit)"
    check = f"{qualified('ResNet.check_resnet_orbit')} {inst} {mod}.orbit"
    return {
        "orbit_check": f"{eq} ({check}) Coq.Init.Datatypes.true",
        "orbit_in_fiber": f"Coq.Init.Logic.and ({same}) ({distinct})",
    }


def dependence_statements(cert: dict[str, Any], mod: str) -> dict[str, str]:
    """The statements of a composition certificate's `relation_i` and `independent_i` theorems
    (the template's), in absolute names: an independence fact i is `independent inst_i`
    (NNCert/meaning/compind/IndependenceMeaning.v); a dependence fact i is
    `dependent inst_i lam_i` (kind dependent) or
    `dependent_all inst_i lam_i lo degree` (kind dependent_all) of
    NNCert/meaning/compind/DependenceMeaning.v,
    so a file that redefines `dependent` locally proves another statement and the driver
    fails."""
    out: dict[str, str] = {}
    facts = cert.get("witness", {}).get("facts", [])
    for i, f in enumerate(facts if isinstance(facts, list) else []):
        kind = f.get("kind") if isinstance(f, dict) else None
        args = f"{mod}.inst_{i} {mod}.lam_{i}"
        if kind == "independent":  # NNCert/meaning/compind/IndependenceMeaning.v
            out[f"independent_{i}"] = (
                f"{qualified('IndependenceMeaning.independent')} {mod}.inst_{i}"
            )
        if kind == "dependent":
            out[f"relation_{i}"] = f"{qualified('DependenceMeaning.dependent')} {args}"
        elif kind == "dependent_all":
            lo, d = int(f["lo"]), int(f["degree"])
            every = qualified("DependenceMeaning.dependent_all")
            out[f"relation_{i}"] = f"{every} {args} {lo}%nat {d}%nat"
    return out


def hypotheses_statements(cert: dict[str, Any], mod: str) -> dict[str, str]:
    """The statements of the `hypotheses_i` theorems (the template's), in absolute names: a
    Prop. 2.1 fact i is `prop21_hypotheses (map to_Q sigma_i) (to_Q d2_i) (to_Q d3_i)` and a
    Prop. 3.3 fact `prop33_hypotheses (map to_Q s)` (NNCert/meaning/compind/CompindMeaning.v;
    to_Q from NNCert/meaning/TermsMeaning.v), s the instance's activation `inst_sigma` for an
    mlp-identifiable certificate, else the fact's `sigma_i`; an MLP fact i's `mlp_hypotheses_i`
    is `mlp_hypotheses widths sigma theta rmin`
    (NNCert/meaning/compind/IdentifiabilityMeaning.v) of the instance's `inst_*` terms in an
    mlp-identifiable certificate."""
    out: dict[str, str] = {}
    to_q, on = qualified("TermsMeaning.to_Q"), "Coq.Lists.List.map"
    facts = cert.get("witness", {}).get("facts", [])
    for i, f in enumerate(facts if isinstance(facts, list) else []):
        kind = f.get("kind") if isinstance(f, dict) else None
        if kind == "prop21":
            out[f"hypotheses_{i}"] = (
                f"{qualified('CompindMeaning.prop21_hypotheses')} ({on} {to_q} {mod}.sigma_{i}) "
                f"({to_q} {mod}.d2_{i}) ({to_q} {mod}.d3_{i})"
            )
        elif kind == "prop33":
            own = "inst_sigma" if cert.get("kind") == "mlp-identifiable" else f"sigma_{i}"
            hyp = qualified("CompindMeaning.prop33_hypotheses")
            out[f"hypotheses_{i}"] = f"{hyp} ({on} {to_q} {mod}.{own})"
        elif kind == "mlp":  # NNCert/meaning/compind/IdentifiabilityMeaning.v
            own = cert.get("kind") == "mlp-identifiable"  # the fact checks the instance's terms
            names = [f"inst_{n}" if own else f"{n}_{i}" for n in ("widths", "sigma", "theta")]
            args = " ".join(f"{mod}.{n}" for n in names)
            hyp = qualified("IdentifiabilityMeaning.mlp_hypotheses")
            out[f"mlp_hypotheses_{i}"] = f"{hyp} {args} {int(f['rmin'])}%nat"
    return out


_MARKED = re.compile(r"^\(\* audited: ([A-Za-z_][A-Za-z0-9_']*) \*\)[ \t]*$", re.M)


def theorems_of(cert: dict[str, Any], module: str, coq_text: str) -> list[Theorem]:
    """The theorems to audit: those the faithful rendered file `coq_text` marks
    `(* audited: NAME *)` (the templates' list), with the expected statements of `statements`.
    `coq_text` must be the text certify rendered, never a file under audit."""
    from certify.checker import registry

    mod = f"Certificates.{module}"
    st = statements(cert, mod)
    names = list(dict.fromkeys(_MARKED.findall(coq_text)))
    for n in st:  # a meaning theorem is audited even if the file forgot to print it
        if n not in names:
            names.append(n)
    line = registry.lookup(cert.get("family"), cert.get("kind"))
    reals = bool(line is not None and line.coq_reals)
    return [Theorem(mod, n, st.get(n), reals) for n in names]


def affsym_statements(cert: dict[str, Any]) -> dict[str, str]:
    """`affsym_element_i : affine_symmetry RHO A B G D` for every element with a theorem
    (checker/facts/affsym_coq.py, the statement the renderer writes). Stated over Coq's reals
    with the notations of Coq.Reals and of the library's AffsymMeaning.v, which the driver
    imports for these statements only (never a certificate module's names or notations)."""
    from certify.checker.facts.affsym_coq import element_theorems

    thms = element_theorems(cert["witness"]["group"])
    return {f"affsym_element_{i}": t.statement for i, t in enumerate(thms) if t is not None}


# The context of the statements over the reals in the driver: Coq's reals and the library's
# AffsymMeaning.v (which defines affine_symmetry and the activations), imported inside a module
# of the driver's own so that nothing else sees their notations.
REALS_CONTEXT = ("Coq.Reals.Reals", "AffsymMeaning")


def driver_text(theorems: list[Theorem]) -> str:
    """Audit.v: the allowed assumptions, the certificate modules, the expected statements,
    the tuple of every audited theorem, then Print Assumptions of the allowed list and of
    that tuple (see the module doc). Theorems over the reals form a second group: the
    allowed list with the axioms of the reals, then their tuple."""
    modules = list(dict.fromkeys(t.module for t in theorems))
    plain = [t for t in theorems if not t.reals]
    reals = [t for t in theorems if t.reals]
    lines = [
        "(* nn-certify audit driver (certify/provers/coq_audit.py): compiled after the library",
        "   and the certificates; its output is checked by audit.awk. *)",
        f"Require {PRIM} {UINT}.",
        f"Definition {REFERENCE} := (",
    ]
    lines += [f"  {n}," for n in ALLOWED_FULL[:-1]] + [f"  {ALLOWED_FULL[-1]})."]
    if reals:
        lines.append("Require Coq.Reals.ClassicalDedekindReals Coq.Logic.FunctionalExtensionality.")
        lines.append("Require Coq.Logic.Classical_Prop.")
        both = ALLOWED_FULL + REALS_FULL
        lines.append(f"Definition {REFERENCE_REALS} := (")
        lines += [f"  {n}," for n in both[:-1]] + [f"  {both[-1]})."]
    lines += [
        f"Require {' '.join(qualified(m) for m in ('Lists', 'Net', 'Rank', 'ResNet', 'ReLU'))}.",
        f"Require {qualified('RankMeaning')} mathcomp.ssreflect.ssrnat mathcomp.algebra.mxalgebra.",
        "Require mathcomp.algebra.rat.",
    ]
    lines += [f"Require {m}." for m in modules]
    for i, t in enumerate(theorems):
        if t.statement is not None and not t.reals:
            lines.append(f"Definition nncert_statement_{i} : {t.statement} := {t.full}.")
    over_reals = [(i, t) for i, t in enumerate(theorems) if t.statement is not None and t.reals]
    if over_reals:
        ctx = " ".join(m if "." in m else qualified(m) for m in REALS_CONTEXT)
        lines += [f"Require {ctx}.", "Module NNCertRealsStatements.", f"Import {ctx}.",
                  "Local Open Scope R_scope."]  # fmt: skip
        lines += [f"Definition nncert_statement_{i} : {t.statement} := {t.full}."
                  for i, t in over_reals]  # fmt: skip
        lines.append("End NNCertRealsStatements.")
    for name, group in ((AUDITED, plain), (AUDITED_REALS, reals)):
        if group:
            lines.append(f"Definition {name} := (")
            lines += [f"  {t.full}," for t in group[:-1]] + [f"  {group[-1].full})."]
    # with no theorem, the driver audits nothing and audit.awk fails it
    lines.append(f"Print Assumptions {REFERENCE}.")
    if plain:
        lines.append(f"Print Assumptions {AUDITED}.")
    if reals:
        lines.append(f"Print Assumptions {REFERENCE_REALS}.")
        lines.append(f"Print Assumptions {AUDITED_REALS}.")
    return "\n".join(lines) + "\n"


AUDIT_AWK = r"""# nn-certify's Print Assumptions audit (certify/provers/coq_audit.py),
# run by build.sh and by certify: awk -f audit.awk Audit.v OUTPUT, OUTPUT the standard
# output of coqc Audit.v.
# The answer to the first Print Assumptions (nncert_allowed: Coq's primitive integers and
# their specification axioms, by absolute name) is the allowed list; every other answer must
# be "Closed under the global context" or list only entries (name and type, as printed in the
# same context) of the allowed list. The second answer is that of nncert_audited, the tuple of
# every audited theorem (its assumptions are the union of theirs). A second group may follow:
# nncert_allowed_reals (the same with the axioms of Coq's reals) is the allowed list of
# nncert_audited_reals, the theorems over the reals. Prints "axiom THEOREM NAME"
# per allowed assumption and "audit: ..." per failure; exit status 1 on any failure.
function flush() {
  if (cur != "") { k[b]++; ent[b, k[b]] = cur; cur = "" }
}
function fail(msg) { print "audit: " msg; bad = 1 }
FNR == NR {
  if ($1 == "Print" && $2 == "Assumptions" && NF == 3) {
    name = $3; sub(/[.]$/, "", name); n++; thm[n] = name
  }
  next
}
/^Axioms:$/ || /^Closed under the global context$/ {
  flush(); b++
  if ($0 != "Axioms:") closed[b] = 1
  next
}
b == 0 { fail("output before the first Print Assumptions answer: " $0); next }
/^[ \t]/ { if (cur == "") fail(thm[b] ": unexpected line: " $0); else cur = cur "\n" $0; next }
{ flush(); cur = $0 }
END {
  flush()
  if (n < 2) fail("the driver prints the assumptions of no theorem")
  if (b != n) fail(n " Print Assumptions in the driver but " b " answers")
  # an answer for nncert_allowed... is the allowed list of the answers after it
  for (j = 1; j <= b; j++) {
    if (thm[j] ~ /^nncert_allowed/) {
      if (thm[j] == "nncert_allowed_reals") reals = 1
      if (closed[j] || k[j] < 1) fail("the allowed list " thm[j] " is empty")
      split("", allowed)
      for (i = 1; i <= k[j]; i++) allowed[ent[j, i]] = 1
      continue
    }
    if (j == 1) fail("the first answer is not an allowed list")
    if (closed[j] && k[j] > 0) fail(thm[j] ": closed, yet lists assumptions")
    for (i = 1; i <= k[j]; i++) {
      e = ent[j, i]
      split(e, first, "\n"); split(first[1], w, " ")
      if (e in allowed) print "axiom " thm[j] " " w[1]
      else fail(thm[j] ": not an allowed assumption: " first[1])
    }
  }
  msg = "audit: the audited theorems assume only primitive integers and their specs"
  if (reals) msg = msg " (those over the reals also the axioms of Coq's real numbers)"
  if (!bad) print msg
  exit bad
}
"""


@dataclass
class AuditResult:
    """The awk program's findings: failure messages, and per theorem the allowed
    assumptions (their printed names)."""

    failures: list[str]
    axioms: dict[str, list[str]]


def parse_awk(output: str) -> AuditResult:
    """Read audit.awk's output (lines `axiom THEOREM NAME` and `audit: MESSAGE`)."""
    failures: list[str] = []
    axioms: dict[str, list[str]] = {}
    for line in output.splitlines():
        if line.startswith("axiom "):
            parts = line.split(" ")
            if len(parts) == 3:
                axioms.setdefault(parts[1], []).append(parts[2])
                continue
        if line.startswith("audit: ") and "assume only primitive integers" not in line:
            failures.append(line[len("audit: ") :])
        elif not line.startswith(("axiom ", "audit: ")) and line.strip():
            failures.append(f"unexpected audit output: {line}")
    return AuditResult(failures, axioms)


def unsafe_lines(text: str, certificate: bool = True) -> list[str]:
    """Lines of a Coq source that turn a kernel check off or (in a certificate) declare an
    assumption: defence in depth, the audit catches their effect on the audited theorems."""
    pats = [UNSAFE_SOURCE] + ([ASSUMPTION_SOURCE] if certificate else [])
    return [ln.strip() for ln in text.splitlines() if any(p.search(ln) for p in pats)]
