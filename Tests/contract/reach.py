#!/usr/bin/env python3
"""How far a contract pass reached: for every operation of the document, how many requests it answered with 2xx.

Reads the HAR report Schemathesis wrote (--report har) and the document, and prints the operations that answered
2xx at least once (with live objects, for those that take ids) and those that never did.

Usage: reach.py OPENAPI_YAML HAR_FILE
"""

import json
import re
import sys
import urllib.parse

import yaml


def main() -> None:
    document = yaml.safe_load(open(sys.argv[1]))
    har = json.load(open(sys.argv[2]))
    operations = []
    for path, methods in document["paths"].items():
        pieces = re.split(r"\{[^}]+\}", path)
        pattern = re.compile("^" + "[^/]+".join(re.escape(piece) for piece in pieces) + "$")
        for method, operation in methods.items():
            operations.append((method.upper(), pattern, operation["operationId"]))
    served: dict[str, int] = {}
    for entry in har["log"]["entries"]:
        request = entry["request"]
        path = urllib.parse.urlsplit(request["url"]).path
        for method, pattern, operation_id in operations:
            if method == request["method"] and pattern.match(path):
                served.setdefault(operation_id, 0)
                if 200 <= entry["response"]["status"] < 300:
                    served[operation_id] += 1
                break
    tested = sorted(served)
    reached = [name for name in tested if served[name]]
    print(f"reach: {len(har['log']['entries'])} requests; {len(reached)} of {len(tested)} operations tested answered 2xx")
    never = [name for name in tested if not served[name]]
    if never:
        print("reach: never answered 2xx: " + ", ".join(never))


if __name__ == "__main__":
    main()
