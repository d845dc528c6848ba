// Types of build.mjs, for the tests' globalSetup and scripts/build.mjs.
/** A hash of everything the build is made from (sources, index.html, build.mjs, the lock file). */
export declare const inputsHash: () => string
/** Whether dist/ holds a build of the current inputs. */
export declare const dashboardIsCurrent: () => boolean
/** Builds into dist/ unless current (or `force`); the seconds it took (0 when skipped). */
export declare const buildDashboard: (
  options?: { readonly force?: boolean; readonly log?: (line: string) => void }
) => Promise<{ readonly built: boolean; readonly seconds: number }>
