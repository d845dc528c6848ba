/**
 * What one setting's declaration holds (the table in Table.ts has one per setting): its kind and
 * default, the flag and environment variable that give it, the standalone server's `--help`
 * text, and its option in `GET /deployment/config`. The fields follow the described system's
 * option type (`serpent.Option`: name, description, flag, env, default, yaml, group, hidden,
 * annotations).
 */
import type { OptionGroup } from "./Groups.js"
import type { SettingType } from "./Types.js"

export interface Setting<A> {
  /** How text reads into the value and how the deployment config carries it. */
  readonly type: SettingType<A>
  /** The value when none is given: the deployment's default, and the option's `default`. */
  readonly default: NoInfer<A>

  /** The flag, without `--`; also the option's `flag`. Absent: a setting only code sets. */
  readonly flag?: string
  /** The environment variable; `WORKBAY_<FLAG>` (see {@link settingEnv}) when absent. */
  readonly env?: string
  /** The option's one-letter `flag_shorthand`. */
  readonly shorthand?: string
  /**
   * The standalone server's `--help` text, whole (with its "Default: ..." sentence). A setting
   * with one is taken by the server's flag and variable; one without is set by embedders only.
   */
  readonly help?: string

  /** The option's name. Absent: the setting has no option in `GET /deployment/config`. */
  readonly name?: string
  /** The option's description (the described system's wording where it has the setting). */
  readonly description?: string
  /** The option's YAML key; empty for secrets, which no YAML file may hold. */
  readonly yaml?: string
  /** The option's group; none for the few the described system lists outside any. */
  readonly group?: OptionGroup
  /** Dotted path of the value inside the deployment config's `config`; none for settings the described system lacks. */
  readonly path?: string
  /** Left out of the described system's `--help`; reported with `hidden: true`. */
  readonly hidden?: boolean
  /** Secret-bearing: never reported with its value (annotation `secret`). */
  readonly secret?: boolean
  /** A premium feature in the described system (annotation `enterprise`). */
  readonly enterprise?: boolean
  /** Settings to use instead (the option's `use_instead`), by key. */
  readonly useInstead?: ReadonlyArray<string>
}

/** A declaration, with its value type inferred from its kind. */
export const setting = <A>(declaration: Setting<A>): Setting<A> => declaration

/** The environment variable of a setting (or of any flag): its own, else `WORKBAY_<FLAG>`. */
export const settingEnv = (s: { readonly flag: string; readonly env?: string | undefined }): string =>
  s.env ?? `WORKBAY_${s.flag.toUpperCase().replace(/-/g, "_")}`
