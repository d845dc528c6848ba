// The plain JavaScript helpers of the benches (lib.mjs), as the TypeScript benches import them: untyped.
export declare const root: any
export declare const bundle: any
export declare const BENCH_EMAIL: any
export declare const BENCH_PASSWORD: any
export declare const SESSION_HEADER: any
export declare const logger: any
export declare const sleep: any
export declare const freePort: any
export declare const rssMb: any
export declare const cpuMs: any
export declare const machineCpuMs: () => { busy: number; total: number }
export declare const treeCpuMs: (pid: number) => number
export declare const request: any
export declare const spawnServer: any
export declare const stop: any
export declare const load: any
export declare const sequential: any
export declare const fmt: any
export declare const bundleIsCurrent: any
export declare const buildBundle: any
export declare const benchWork: any
export declare const seedFirstUser: any
export declare const machineTemplate: any
export declare const seedTemplate: any
export declare const vacuumInto: any
export declare const userInserter: any
export declare const keepCounts: any
export declare const workspaceCloner: any
export declare const timeStatement: any
export declare const queryPlan: any
export declare const warmThenLoad: any
export declare const scalingTable: any
export declare const machineLine: any
export declare const writeReport: any
export declare const reducedUserJson: any
