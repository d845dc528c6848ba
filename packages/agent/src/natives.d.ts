// ws's optional native helpers (optional dependencies, no types of their own): only loaded, to say whether they load (BuildInfo.ts).
declare module "bufferutil"
declare module "utf-8-validate"
