import type { EdgeConfigInput } from './EdgeConfig.js';

/**
 * Every key an edge config takes, dotted for a key inside an object (`cache.maxBytes`); a list is
 * one key. Derived from EdgeConfigInput, so the option table is checked against the types.
 */
type Leaves<T> = {
  [K in keyof T & string]-?: NonNullable<T[K]> extends readonly unknown[] | string | number | boolean
    ? K
    : `${K}.${Leaves<NonNullable<T[K]>>}`;
}[keyof T & string];
export type EdgeOptionKey = Leaves<EdgeConfigInput>;

/** A number in [min, max]; `ms`: a duration, rounded to what a timer takes (timerMs). */
export interface NumberRule {
  type: 'number' | 'integer' | 'ms';
  min: number;
  max: number;
  /** Undefined: the option stays unset unless given. */
  default?: number;
}

/** One of a few words; `message` explains the choice when the value is none of them. */
export interface EnumRule {
  type: 'enum';
  values: readonly string[];
  default: string;
  message?: (got: unknown) => string;
}

/** A non-empty string. */
export interface TextRule {
  type: 'text';
  default: string;
  message: string;
}

/**
 * Checked by createEdgeConfig itself: its value depends on other options (hold and role, the
 * origins, an object whose fields go together). `default` is what the usage text says.
 */
export interface CustomRule {
  type: 'custom';
  default?: string;
}

export type OptionRule = NumberRule | EnumRule | TextRule | CustomRule;

/** Raw values of every flag given, by flag name. */
export type FlagValues = Readonly<Record<string, string | undefined>>;

export interface CliFlag {
  /** Without the dashes: `max-hold`. */
  flag: string;
  /** Its value in the usage text: `N`, `URL`. */
  arg: string;
  /** The usage's left column when it is not `--flag ARG` (two flags that go together). */
  usage?: string;
  /**
   * The usage's explanation, one string a line; `{default}` stands for the rule's default.
   * Undefined: the flag is listed on another flag's line.
   */
  help?: readonly string[];
  /**
   * How the raw value enters the config input, when it is not set at the option's key as given
   * (a string) or as a number (a number rule).
   */
  apply?: (raw: string, input: EdgeConfigInput, values: FlagValues) => void;
  /** The CLI's default where it differs from the config's (the CLI logs at info). */
  cliDefault?: string;
}

/** An entry of the option table: a config key with its rule, and its flag if it has one. */
export interface ConfigOption {
  key: EdgeOptionKey;
  rule: OptionRule;
  cli?: CliFlag;
}

/** A flag of `ethle-edge serve` that is not a config key (--config, --workers). */
export interface CliOnlyOption {
  key?: undefined;
  rule?: undefined;
  cli: CliFlag & { help: readonly string[] };
}

export type EdgeOption = ConfigOption | CliOnlyOption;
