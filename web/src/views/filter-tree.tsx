// The Query and Scan builder's filter: a tree of groups (all of / any of, each negatable, nested
// to any depth, written with parentheses) and conditions (a path or size(path), an operator, and
// operands that are typed values or other paths). Test ids carry the node's place, e.g.
// filter-2-0 is the first condition of the root's third child (a group, group-2).
import {
  appendAt, arity, FILTER_OPS, hasConditions, newCondition, newGroup, operandError, operandKinds, PLACEHOLDERS,
  readableDialect, removeAt, SIZE_OPS, updateAt, VALUE_KINDS, withOp, writeTree,
} from '../condition';
import type { FilterCondition, FilterGroup, FilterNode, FilterOp, Operand, OperandKind, Place } from '../condition';

type Edit = (at: Place, f: (n: FilterNode) => FilterNode | null) => void;

const val = (e: Event) => (e.target as HTMLInputElement | HTMLSelectElement).value;
const checked = (e: Event) => (e.target as HTMLInputElement).checked;
const suffix = (at: Place) => at.map((i) => `-${i}`).join('');

const KIND_TITLES: Record<OperandKind, string> = {
  S: 'string', N: 'number', B: 'binary, as base64', BOOL: 'boolean', NULL: 'null', L: 'list, as JSON', M: 'map, as JSON',
  SS: 'string set, as a JSON array', NS: 'number set, as a JSON array', BS: 'binary set, base64 strings in a JSON array',
  path: 'another attribute of the same item', size: 'the size of another attribute',
};
const OP_LABELS: Partial<Record<FilterOp, string>> = {
  between: 'BETWEEN', in: 'IN', attribute_exists: 'exists', attribute_not_exists: 'not exists', attribute_type: 'is of type',
};
const JSON_KINDS: OperandKind[] = ['L', 'M', 'SS', 'NS', 'BS'];

export function FilterTree(props: { root: FilterGroup; onChange: (root: FilterGroup) => void }) {
  const { root, onChange } = props;
  const edit: Edit = (at, f) => onChange(updateAt(root, at, f));
  let readable = '';
  try {
    readable = writeTree(readableDialect, root) ?? '';
  } catch {
    // the error is shown with the request
  }
  return (
    <div class="ftree" data-testid="filters">
      <Group g={root} at={[]} edit={edit} root={root} onChange={onChange} />
      {readable && hasConditions(root) && (
        <div class="fread" data-testid="filter-readable" title="the filter with names and values inline">
          <span class="muted">keeps items where </span>
          <span class="mono">{readable}</span>
        </div>
      )}
    </div>
  );
}

function Group(props: { g: FilterGroup; at: Place; edit: Edit; root: FilterGroup; onChange: (r: FilterGroup) => void }) {
  const { g, at, edit, root, onChange } = props;
  const s = suffix(at);
  const nested = at.length > 0;
  // A new first condition of the top group starts it afresh (its NOT is not shown without two).
  const add = (node: FilterNode) => onChange(appendAt(!nested && !g.children.length ? { ...root, not: false } : root, at, node));
  const header = nested || g.children.length > 1 || (g.not && g.children.length > 0);
  return (
    <div class={`fgroup ${nested ? 'nested' : 'top'} ${g.join === 'OR' ? 'or' : 'and'}${g.not ? ' negated' : ''}`} data-testid={`group${s}`}>
      <div class="fhead">
        {!nested && <b class="ftitle">Filter</b>}
        {!nested && !g.children.length && <span class="muted">none, every item read is returned</span>}
        {header && (
          <>
            <label class="check" title="negate the whole group: NOT ( … )">
              <input type="checkbox" data-testid={`group-not${s}`} checked={!!g.not} onChange={(e) => edit(at, (n) => ({ ...n, not: checked(e) }))} />
              not
            </label>
            <span class="muted">{nested ? '( match' : 'match'}</span>
            <select data-testid={`join${s}`} aria-label="join" value={g.join} onChange={(e) => edit(at, (n) => ({ ...n, join: val(e) as 'AND' | 'OR' }))}>
              <option value="AND">all (AND)</option>
              <option value="OR">any (OR)</option>
            </select>
            <span class="muted">of these:</span>
          </>
        )}
        <span class="grow" />
        {nested && (
          <button class="link" data-testid={`remove-group${s}`} title="remove this group and its conditions" onClick={() => onChange(removeAt(root, at))}>
            remove group
          </button>
        )}
      </div>
      {g.children.map((c, i) => (
        <div class="fchild" key={c.id}>
          <span class="fjoin">{i ? g.join : ''}</span>
          {c.type === 'group' ? (
            <Group g={c} at={[...at, i]} edit={edit} root={root} onChange={onChange} />
          ) : (
            <Condition c={c} at={[...at, i]} edit={edit} remove={() => onChange(removeAt(root, [...at, i]))} />
          )}
        </div>
      ))}
      <div class="fchild">
        <span class="fjoin" />
        <div class="row">
          <button data-testid={`add-filter${s}`} onClick={() => add(newCondition())}>
            + condition
          </button>
          <button data-testid={`add-group${s}`} title="a parenthesised group of conditions" onClick={() => add(newGroup(g.join === 'AND' ? 'OR' : 'AND', [newCondition()]))}>
            + ( group )
          </button>
          {nested && <span class="muted fclose">)</span>}
        </div>
      </div>
    </div>
  );
}

function Condition(props: { c: FilterCondition; at: Place; edit: Edit; remove: () => void }) {
  const { c, at, edit, remove } = props;
  const set = (f: (c: FilterCondition) => FilterCondition) => edit(at, (n) => f(n as FilterCondition));
  const setOperand = (i: number, o: Partial<Operand>) => set((x) => ({ ...x, operands: x.operands.map((p, j) => (j === i ? { ...p, ...o } : p)) }));
  const ops = c.size ? SIZE_OPS : FILTER_OPS;
  const n = arity(c.op);
  const pathError = c.path.trim() ? operandError({ kind: 'path', text: c.path }) : '';
  return (
    <div class={`row fcond${c.not ? ' negated' : ''}`} data-testid={`filter${suffix(at)}`}>
      <label class="check" title="negate this condition: NOT ( … )">
        <input type="checkbox" data-testid="f-not" checked={!!c.not} onChange={(e) => set((x) => ({ ...x, not: checked(e) }))} />
        not
      </label>
      <select data-testid="f-lhs" aria-label="left side" value={c.size ? 'size' : 'path'} title="compare the attribute itself, or its size" onChange={(e) => set((x) => withOp(x, x.op, val(e) === 'size'))}>
        <option value="path">path</option>
        <option value="size">size(path)</option>
      </select>
      <input
        data-testid="f-path"
        aria-label="path"
        class={`mono${pathError ? ' bad' : ''}`}
        title={pathError || 'a document path: names, .nested names and [list indexes]'}
        placeholder="path, e.g. address.city or tags[0]"
        value={c.path}
        size={20}
        onInput={(e) => set((x) => ({ ...x, path: val(e) }))}
      />
      <select data-testid="f-op" aria-label="operator" value={c.op} onChange={(e) => set((x) => withOp(x, val(e) as FilterOp))}>
        {ops.map((o) => (
          <option value={o} title={o}>
            {OP_LABELS[o] ?? o}
          </option>
        ))}
      </select>
      {c.op === 'attribute_type' && (
        <select data-testid="f-type" aria-label="attribute type" value={c.operands[0]?.text} onChange={(e) => setOperand(0, { text: val(e) })}>
          {VALUE_KINDS.map((k) => (
            <option value={k}>{k}</option>
          ))}
        </select>
      )}
      {c.op !== 'attribute_type' &&
        c.operands.map((o, i) => (
          <span class="funit" key={i}>
            {i > 0 && <span class="muted">{n === 2 ? 'and' : ','}</span>}
            <OperandInput o={o} i={i} kinds={operandKinds(c.op)} onChange={(p) => setOperand(i, p)} />
            {n === 'list' && c.operands.length > 1 && (
              <button class="link" title="remove this value" data-testid={`f-remove-value-${i}`} onClick={() => set((x) => ({ ...x, operands: x.operands.filter((_, j) => j !== i) }))}>
                ✕
              </button>
            )}
          </span>
        ))}
      {n === 'list' && (
        <button data-testid="f-add-value" title="another operand for IN" onClick={() => set((x) => ({ ...x, operands: [...x.operands, { kind: x.operands[x.operands.length - 1]?.kind ?? 'S', text: '' }] }))}>
          + value
        </button>
      )}
      <span class="grow" />
      <button data-testid="f-remove" title="remove this condition" onClick={remove}>
        ×
      </button>
    </div>
  );
}

function OperandInput(props: { o: Operand; i: number; kinds: OperandKind[]; onChange: (o: Partial<Operand>) => void }) {
  const { o, i, kinds, onChange } = props;
  const error = o.kind === 'NULL' || (o.kind !== 'BOOL' && !o.text) ? '' : operandError(o);
  const values = kinds.filter((k) => k !== 'path' && k !== 'size');
  const refs = kinds.filter((k) => k === 'path' || k === 'size');
  const setKind = (k: OperandKind) => onChange({ kind: k, ...(k === 'BOOL' ? { text: 'true' } : o.kind === 'BOOL' ? { text: '' } : {}) });
  return (
    <span class={`operand${o.kind === 'path' || o.kind === 'size' ? ' ref' : ''}`}>
      <select data-testid={`f-kind-${i}`} aria-label={`operand ${i + 1} type`} value={o.kind} title={KIND_TITLES[o.kind]} onChange={(e) => setKind(val(e) as OperandKind)}>
        <optgroup label="value">
          {values.map((k) => (
            <option value={k} title={KIND_TITLES[k]}>
              {k}
            </option>
          ))}
        </optgroup>
        {refs.length > 0 && (
          <optgroup label="attribute">
            {refs.map((k) => (
              <option value={k} title={KIND_TITLES[k]}>
                {k === 'size' ? 'size()' : 'path'}
              </option>
            ))}
          </optgroup>
        )}
      </select>
      {o.kind === 'BOOL' ? (
        <select data-testid={`f-value-${i}`} aria-label={`operand ${i + 1}`} value={o.text} onChange={(e) => onChange({ text: val(e) })}>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      ) : o.kind === 'NULL' ? null : (
        <input
          data-testid={`f-value-${i}`}
          aria-label={`operand ${i + 1}`}
          class={`${JSON_KINDS.includes(o.kind) || o.kind === 'path' || o.kind === 'size' ? 'mono' : ''}${error ? ' bad' : ''}`}
          title={error || KIND_TITLES[o.kind]}
          placeholder={PLACEHOLDERS[o.kind]}
          value={o.text}
          size={JSON_KINDS.includes(o.kind) ? Math.min(60, Math.max(24, o.text.length + 2)) : o.kind === 'path' || o.kind === 'size' ? 16 : 12}
          onInput={(e) => onChange({ text: val(e) })}
        />
      )}
    </span>
  );
}
