// The CPU profile helpers (profile.mjs), as the TypeScript benches import them: untyped.
export declare const startProfile: any
export declare const summarize: any
export declare const startPromotedSampling: any
export declare const summarizeAllocations: any
