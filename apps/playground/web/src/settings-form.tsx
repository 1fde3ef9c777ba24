import { useState } from 'preact/hooks';

/** The subset of JSON Schema the generated forms understand; anything else gets a JSON field. */
interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly enum?: readonly unknown[];
  readonly default?: unknown;
  readonly description?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly anyOf?: readonly JsonSchema[];
}

type Settings = Readonly<Record<string, unknown>>;

/** A setting's value as form text: strings as they are, anything else as JSON. */
function show(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` with `path` set to `next`; `undefined` removes the key (back to the default), and empty objects go too. */
function setAt(value: Settings, path: readonly string[], next: unknown): Settings {
  const [key, ...rest] = path;
  if (key === undefined) return value;
  const copy: Record<string, unknown> = { ...value };
  const existing = copy[key];
  const child = rest.length === 0 ? next : setAt(isObject(existing) ? existing : {}, rest, next);
  if (child === undefined || (isObject(child) && Object.keys(child).length === 0)) delete copy[key];
  else copy[key] = child;
  return copy;
}

function getAt(value: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((current, key) => (isObject(current) ? current[key] : undefined), value);
}

/** Turns `maxToolResultLines` into "max tool result lines". */
function label(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

function typeOf(schema: JsonSchema): string | undefined {
  if (schema.enum !== undefined) return 'enum';
  const types: readonly string[] = typeof schema.type === 'string' ? [schema.type] : (schema.type ?? []);
  const type = types.find((candidate) => candidate !== 'null');
  if (typeof type === 'string') return type;
  const option = schema.anyOf?.find((candidate) => candidate.type !== 'null');
  return option === undefined ? undefined : typeOf(option);
}

function JsonField(props: { id: string; value: unknown; fallback: unknown; onChange: (value: unknown) => void; onError: (message: string | undefined) => void }) {
  const [text, setText] = useState(props.value === undefined ? '' : JSON.stringify(props.value));
  return (
    <input
      id={props.id}
      class="json-input"
      placeholder={props.fallback === undefined ? 'JSON' : JSON.stringify(props.fallback)}
      value={text}
      onInput={(event) => {
        const next = event.currentTarget.value;
        setText(next);
        if (next.trim() === '') {
          props.onError(undefined);
          props.onChange(undefined);
          return;
        }
        try {
          props.onChange(JSON.parse(next));
          props.onError(undefined);
        } catch {
          props.onError(`${props.id}: not valid JSON`);
        }
      }}
    />
  );
}

function Field(props: {
  name: string;
  path: readonly string[];
  schema: JsonSchema;
  value: Settings;
  defaults: unknown;
  onChange: (value: Settings) => void;
  onError: (message: string | undefined) => void;
}) {
  const { schema, path } = props;
  const id = `setting-${props.name}-${path.join('.')}`;
  const current = getAt(props.value, path);
  const fallback = getAt(props.defaults, path) ?? schema.default;
  const change = (next: unknown) => props.onChange(setAt(props.value, path, next));
  const type = typeOf(schema);
  const title = path[path.length - 1] as string;
  if (type === 'object' && schema.properties !== undefined) {
    return (
      <fieldset class="settings-group">
        <legend title={schema.description}>{label(title)}</legend>
        {Object.entries(schema.properties).map(([key, child]) => (
          <Field key={key} {...props} path={[...path, key]} schema={child} />
        ))}
      </fieldset>
    );
  }
  let control;
  if (type === 'boolean') {
    control = (
      <select id={id} value={show(current)} onChange={(event) => change(event.currentTarget.value === '' ? undefined : event.currentTarget.value === 'true')}>
        <option value="">default ({show(fallback ?? '—')})</option>
        <option value="true">true</option>
        <option value="false">false</option>
      </select>
    );
  } else if (type === 'enum') {
    control = (
      <select id={id} value={show(current)} onChange={(event) => change(event.currentTarget.value === '' ? undefined : event.currentTarget.value)}>
        <option value="">default ({show(fallback ?? '—')})</option>
        {(schema.enum ?? []).map((option) => (
          <option key={show(option)} value={show(option)}>
            {show(option)}
          </option>
        ))}
      </select>
    );
  } else if (type === 'integer' || type === 'number') {
    control = (
      <input
        id={id}
        type="number"
        step={type === 'integer' ? 1 : 'any'}
        min={schema.minimum ?? schema.exclusiveMinimum}
        max={schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER ? schema.maximum : undefined}
        placeholder={show(fallback)}
        value={show(current)}
        onInput={(event) => {
          const text = event.currentTarget.value;
          change(text === '' ? undefined : Number(text));
        }}
      />
    );
  } else if (type === 'string') {
    control = (
      <input
        id={id}
        placeholder={show(fallback)}
        value={typeof current === 'string' ? current : ''}
        onInput={(event) => change(event.currentTarget.value === '' ? undefined : event.currentTarget.value)}
      />
    );
  } else {
    control = <JsonField id={id} value={current} fallback={fallback} onChange={change} onError={props.onError} />;
  }
  return (
    <div class="setting">
      <label for={id} title={schema.description ?? title}>
        {label(title)}
      </label>
      {control}
    </div>
  );
}

/**
 * A form generated from a strategy's settings schema (JSON Schema of its input): one control per setting, the
 * default as placeholder; only the settings the user changed are sent (the server validates them as the CLI does).
 * Without a schema, a JSON box.
 */
export function SettingsForm(props: {
  name: string;
  schema: Readonly<Record<string, unknown>> | undefined;
  defaults: unknown;
  value: Settings;
  onChange: (value: Settings) => void;
}) {
  const [error, setError] = useState<string | undefined>(undefined);
  const schema = props.schema as JsonSchema | undefined;
  if (schema?.properties === undefined) {
    return (
      <div class="settings-form">
        <label class="muted" for={`settings-json-${props.name}`}>
          Settings as JSON (defaults: {JSON.stringify(props.defaults ?? {})})
        </label>
        <textarea
          id={`settings-json-${props.name}`}
          rows={4}
          placeholder="{}"
          onInput={(event) => {
            const text = event.currentTarget.value.trim();
            try {
              const parsed: unknown = text === '' ? {} : JSON.parse(text);
              if (!isObject(parsed)) throw new Error('expected an object');
              setError(undefined);
              props.onChange(parsed);
            } catch (problem) {
              setError(`Not a JSON object: ${(problem as Error).message}`);
            }
          }}
        />
        {error === undefined ? null : <p class="field-error">{error}</p>}
      </div>
    );
  }
  return (
    <div class="settings-form">
      {Object.entries(schema.properties).map(([key, child]) => (
        <Field key={key} name={props.name} path={[key]} schema={child} value={props.value} defaults={props.defaults} onChange={props.onChange} onError={setError} />
      ))}
      {error === undefined ? null : <p class="field-error">{error}</p>}
    </div>
  );
}
