"""schemathesis hooks for tools/contract.sh.

tools/contract.toml lets a few operations answer 422 to a request the document calls valid,
because one of their rules depends on data a schema can't hold (a country, a store, the
tenant's catalogue, the airline's answer, the member's quotas). This check keeps that exception
to exactly those rules: such a 422 may name only the fields those rules are about. A 422 on any
other field means the document lets through something the server refuses: fix the document.
"""

import ast
import threading
from fnmatch import fnmatchcase

import schemathesis

# CPython 3.11 (this machine's 3.11.7) keeps the AST constructor's recursion depth in state the
# threads share (python/cpython#106905): two threads parsing at once can fail with "SystemError:
# AST constructor recursion depth mismatch". Hypothesis parses source files to describe the
# lambdas of schemathesis's strategies, and contract.sh runs two workers (threads), so a CI run
# once failed with that error in the middle of the coverage phase, about no request at all.
# Parsing one at a time takes the race away; nothing else about the run changes.
_parse = ast.parse
_parse_lock = threading.Lock()


def _parse_one_at_a_time(*args, **kwargs):
    with _parse_lock:
        return _parse(*args, **kwargs)


ast.parse = _parse_one_at_a_time

# Operation -> the fields whose rules depend on data (patterns as in fnmatch). "" stands for a
# refusal that names no field (the airline refusing a transfer).
DATA_DEPENDENT = {
    ("POST", "/api/connections"): {"definition_id"},
    ("PUT", "/api/profile"): {"address.*", "birth_date", "identities.*", "email", "phone"},
    ("POST", "/api/profile/email"): {"email"},
    ("POST", "/api/profile/email/verify"): {"code", "email"},
    ("PUT", "/api/profile/attributes/comms"): {"*"},
    ("PUT", "/api/profile/attributes/custom/{key}"): {"key", "value"},
    ("POST", "/api/profile/claims"): {"store", "date", ""},
    ("POST", "/api/connections/{id}/lists"): {""},
    ("POST", "/api/connections/{id}/lists/{listId}/items"): {""},
    ("POST", "/api/profile/rewards/redeem"): {"catalogue_id", "idempotency_key"},
    ("POST", "/api/qff/validate"): {"qff_number", "last_name"},
    ("POST", "/api/qff/link"): {"qff_number", "last_name"},
    ("POST", "/api/qff/redeem"): {"points", "idempotency_key", ""},
    ("POST", "/api/privacy/delete"): {"code"},
    ("POST", "/api/activity/visit"): {"location"},
    ("POST", "/api/activity/event"): {"eventData.m", "customFields", "customFields.*"},
    ("POST", "/api/mfe/reports"): {"remote", "version"},
}


@schemathesis.check
def refused_only_for_data_dependent_rules(ctx, response, case):
    """A valid request refused with 422 names only fields whose rule depends on data."""
    meta = case.meta
    if response.status_code != 422 or meta is None or not meta.generation.mode.is_positive:
        return None
    allowed = DATA_DEPENDENT.get((case.method.upper(), case.operation.path))
    if allowed is None:
        # Not an operation with such rules: positive_data_acceptance already refuses any 422.
        return None
    try:
        fields = list(response.json().get("errors") or {}) or [""]
    except ValueError:
        raise AssertionError("A 422 that is not in the error shape")
    stray = [f for f in fields if not any(fnmatchcase(f, pattern) for pattern in allowed)]
    if stray:
        raise AssertionError(
            f"Valid data refused on {', '.join(stray) or 'no field'}: a rule the document could state "
            f"(only {', '.join(sorted(allowed))} depend on data here)"
        )
    return None
