/**
 * Service configuration from the environment: every option names its
 * variable, its default and what it does in one place, so `--help-config`,
 * docs/configuration.md and the parser can never disagree. Values are checked
 * with zod at start-up; a bad value stops the service with the variable's name.
 */
import { z } from 'zod';

export interface EnvOption<T> {
  env: string;
  schema: z.ZodType<T>;
  default: T | (() => T);
  doc: string;
}

/** One option: `opt('WORKER_ID', z.string(), () => hostname(), 'Unique id of this worker')`. */
export function opt<T>(env: string, schema: z.ZodType<T>, def: T | (() => T), doc: string): EnvOption<T> {
  return { env, schema, default: def, doc };
}

/** Integer option read with coercion (env values are strings). */
export const int = (min = 0, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max);
/** Boolean option: 1/true/yes/on are true, 0/false/no/off false. */
export const bool = () =>
  z.preprocess((v) => {
    if (typeof v !== 'string') return v;
    const s = v.trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(s)) return true;
    if (['0', 'false', 'no', 'off', ''].includes(s)) return false;
    return v;
  }, z.boolean());

type Spec = Record<string, EnvOption<unknown>>;
export type ConfigOf<S extends Spec> = { [K in keyof S]: S[K] extends EnvOption<infer T> ? T : never };

export interface ConfigDef<S extends Spec> {
  spec: S;
  /** Reads every option from `env`, falling back to its default. Throws naming the bad variable. */
  fromEnv(env?: NodeJS.ProcessEnv): ConfigOf<S>;
  /** Fills what `partial` leaves out with defaults and validates the rest (programmatic start, tests). */
  resolve(partial?: Partial<ConfigOf<S>>): ConfigOf<S>;
  /** A markdown table of the options (for `--help-config` and the docs). */
  describe(): string;
}

/** A bad or missing setting: the service cannot start; `exitOnConfigError` reports it in one line. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Runs a service's configuration step; a ConfigError becomes one readable line on stderr and exit code 78
 * (EX_CONFIG), so an operator sees which variable to fix instead of a stack trace. Anything else is a bug
 * and propagates.
 */
export function exitOnConfigError<T>(service: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${service}: configuration error: ${err.message} (--help-config lists every option)\n`);
    process.exit(78);
  }
}

const defaultOf = <T>(o: EnvOption<T>): T => (typeof o.default === 'function' ? (o.default as () => T)() : o.default);

export function defineConfig<S extends Spec>(spec: S): ConfigDef<S> {
  const build = (pick: (key: string, o: EnvOption<unknown>) => { set: boolean; value: unknown }): ConfigOf<S> => {
    const out: Record<string, unknown> = {};
    for (const [key, o] of Object.entries(spec)) {
      const { set, value } = pick(key, o);
      if (!set) {
        out[key] = defaultOf(o);
        continue;
      }
      const r = o.schema.safeParse(value);
      if (!r.success) throw new ConfigError(`invalid ${o.env}=${JSON.stringify(value)}: ${r.error.issues[0]?.message}`);
      out[key] = r.data;
    }
    return out as ConfigOf<S>;
  };
  return {
    spec,
    fromEnv(env = process.env) {
      return build((_key, o) => {
        const raw = env[o.env];
        return { set: raw !== undefined && raw !== '', value: raw };
      });
    },
    resolve(partial = {}) {
      const p = partial as Record<string, unknown>;
      return build((key) => ({ set: p[key] !== undefined, value: p[key] }));
    },
    describe() {
      const rows = Object.values(spec).map((o) => {
        let d: unknown;
        try {
          d = typeof o.default === 'function' ? '(computed)' : o.default;
        } catch {
          d = '?';
        }
        const shown = d === '' ? '(empty)' : d === undefined ? '(unset)' : String(d);
        return `| \`${o.env}\` | ${shown} | ${o.doc} |`;
      });
      return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
    },
  };
}
