# Converts Rapid's specs.yaml (which the `yaml` npm package refuses: a double-quoted continuation
# near the top) to specs.content-availability.json: the two operations staygate calls, with every
# component they refer to ($ref or discriminator mapping), unchanged. Run: python3 convert.py /path/to/specs.yaml (PyYAML 6).
import json
import sys

import yaml

PATHS = ['/properties/content', '/properties/availability']

spec = yaml.safe_load(open(sys.argv[1], encoding='utf-8'))
out = {key: spec[key] for key in ('openapi', 'info', 'servers', 'security') if key in spec}
out['paths'] = {path: spec['paths'][path] for path in PATHS}
components = {'securitySchemes': spec['components']['securitySchemes']}


def reach(ref):
    if isinstance(ref, str) and ref.startswith('#/components/'):
        _, _, kind, name = ref.split('/', 3)
        if name not in components.setdefault(kind, {}):
            components[kind][name] = spec['components'][kind][name]
            walk(components[kind][name])


def walk(node):
    if isinstance(node, dict):
        reach(node.get('$ref'))
        # A discriminator's mapping names its schemas by reference too (Property -> PropertyAvailability).
        mapping = node.get('discriminator', {}).get('mapping', {}) if isinstance(node.get('discriminator'), dict) else {}
        for ref in mapping.values():
            reach(ref)
        for value in node.values():
            walk(value)
    elif isinstance(node, list):
        for value in node:
            walk(value)


walk(out['paths'])
out['components'] = {kind: dict(sorted(items.items())) for kind, items in sorted(components.items())}
with open('specs.content-availability.json', 'w', encoding='utf-8') as f:
    json.dump(out, f, indent=1, ensure_ascii=False)
    f.write('\n')
