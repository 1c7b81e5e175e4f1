"""Checks the conventions that keep the contract truthful under fuzzing, before fuzzing it:
every JSON body is required and documents 400 (unreadable JSON), every operation with query
parameters documents 422 (a value it does not take), every request schema is closed
(`additionalProperties: false`) except the payment provider's webhook event, and every key and
`required` name is a string as a YAML 1.1 reader (PyYAML, and the code generators built on it)
reads it: an unquoted `on`, `yes` or `no` is read as a boolean. Prints each breach and exits 1
when there is one."""
import yaml, re, sys
p=sys.argv[1]
d=yaml.safe_load(open(p))
schemas=d['components']['schemas']; params=d['components'].get('parameters',{})
req=set()
inline=[]
def walk(s, seen):
    if not isinstance(s, dict): return
    if '$ref' in s:
        name=s['$ref'].split('/')[-1]
        if name in seen: return
        seen.add(name); req.add(name); walk(schemas[name], seen); return
    if s.get('type')=='object' and s.get('properties') and s.get('additionalProperties') is not False:
        inline.append(s)
    for v in s.get('properties',{}).values(): walk(v, seen)
    if 'items' in s: walk(s['items'], seen)
problems=[]
for path,item in d['paths'].items():
    for m,op in item.items():
        if not isinstance(op,dict): continue
        if 'requestBody' in op:
            for ct,c in op['requestBody']['content'].items(): walk(c.get('schema',{}),set())
            if ct=='application/json' and '400' not in op['responses']: problems.append(('no 400', op['operationId']))
            if not op['requestBody'].get('required'): problems.append(('optional body', op['operationId']))
        q=any((params[x['$ref'].split('/')[-1]] if '$ref' in x else x).get('in')=='query' for x in op.get('parameters',[]))
        if q and '422' not in op['responses']: problems.append(('query without 422', op['operationId']))
for r in sorted(req):
    schemas[r]['_name']=r
for o in inline:
    if '_name' not in o: problems.append(('open inline object with', ', '.join(sorted(o['properties']))))
for r in sorted(req):
    sc=schemas[r]
    if sc.get('type')=='object' and sc.get('additionalProperties') is not False and r!='PaymentWebhookEvent':
        problems.append(('open schema', r))
def yaml11(node, where):
    if isinstance(node, dict):
        for k, v in node.items():
            if not isinstance(k, str): problems.append(('a key a YAML 1.1 reader takes for %r (quote it) at' % (k,), where))
            if k == 'required' and isinstance(v, list):
                for n in v:
                    if not isinstance(n, str): problems.append(('a required name a YAML 1.1 reader takes for %r (quote it) at' % (n,), where))
            yaml11(v, where + '/' + str(k))
    elif isinstance(node, list):
        for i, v in enumerate(node): yaml11(v, '%s/%d' % (where, i))
yaml11(d, '#')
for pr in problems: print('contract:', *pr)
sys.exit(1 if problems else 0)
