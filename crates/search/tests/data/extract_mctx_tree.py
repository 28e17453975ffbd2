"""Writes mctx_gumbel_tree.txt from mctx's gumbel_muzero_tree.json.

The source is google-deepmind/mctx, mctx/_src/tests/test_data/gumbel_muzero_tree.json
(Apache-2.0): the search tree that mctx's tree_test.py expects from gumbel_muzero_policy.
The output keeps only what the replay test needs, one line per expanded node:

    index parent action visit value_view raw_value_view prior_0 ... prior_{A-1}

`index` is mctx's evaluation_index (the simulation that expanded the node, root 0),
`parent` and `action` are -1 for the root, `prior_a` are the node's policy probabilities.

Usage: python3 extract_mctx_tree.py gumbel_muzero_tree.json > mctx_gumbel_tree.txt
"""
import json
import sys

data = json.load(open(sys.argv[1]))
print("# From google-deepmind/mctx mctx/_src/tests/test_data/gumbel_muzero_tree.json "
      "(Apache-2.0), via extract_mctx_tree.py.")
print("# algorithm_config: " + json.dumps(data["algorithm_config"], sort_keys=True))
print("# env_config: " + json.dumps(data["env_config"], sort_keys=True))
print("# index parent action visit value_view raw_value_view priors...")
lines = []


def walk(node, parent, action):
    priors = [child["prior"] for child in node["child_stats"]]
    lines.append((node["evaluation_index"], " ".join(
        [str(node["evaluation_index"]), str(parent), str(action), str(node["visit"]),
         "%.10g" % node["value_view"], "%.10g" % node["raw_value_view"]] + ["%.10g" % p for p in priors])))
    for child in node["child_stats"]:
        if "visit" in child:
            walk(child, node["evaluation_index"], child["action"])


walk(data["tree"], -1, -1)
for _, line in sorted(lines):
    print(line)
