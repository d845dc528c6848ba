// An esbuild plugin for the server's and the CLI's bundles (scripts/server-bundle.mjs,
// scripts/cli-bundle.mjs): Effect's Schema module making each schema's class with one static
// field instead of a class full of static methods.
//
// Every schema Effect 3 makes is a class: `make(ast)` returns a new `class SchemaClass` with its
// own static `annotations`, `pipe` and `toString` methods and five static fields, and each kind of
// schema extends it with another class of its own methods (a struct: `annotations`, `pick`,
// `omit`, and its `fields`, `records` and `make`). V8 builds each such class from its template
// one property at a time, and the service's modules make about 5,700 schemas and 4,200 classes of
// kinds as they are evaluated: in the interpreter a start runs in, about 10-15 us for each, and
// about 130 ms of the standalone server's restart of about 850 ms (bench/README.md, "Eighth round").
//
// In the bundle the methods live once, in a base class per kind (`SchemaBase`, and
// `TypeLiteralBase`, `UnionBase`, ... extending it), written as the originals but reading what a
// method's closure held from the class itself (`this.ast`, `this.fields`, ... which hold the same
// values); each schema is a class extending its kind's base with only its own data as static
// fields (`ast`, `fields`, `members`, and the `make` arrow that validates with that very class).
// A class schema's five derived schemas are made when first read rather than as it is defined
// (`LAZY_CLASS_PARTS` below). What a schema is, gives and does is unchanged: the same AST, the
// same statics to read (own or inherited), the same decoding, encoding, annotations and JSON Schema.
// packages/core/test/SchemaLean.test.ts bundles Effect's Schema with and without this plugin and
// compares both on every schema core exports. The replaced text is checked: an Effect whose
// Schema module differs fails the build, saying so.
import { readFile } from "node:fs/promises"
import { rewriteChecked } from "./checked-rewrite.mjs"

/** The bases, put right after `variance` (which `SchemaBase` reads as it is defined). */
const VARIANCE = `const variance = {
  /* c8 ignore next */
  _A: _ => _,
  /* c8 ignore next */
  _I: _ => _,
  /* c8 ignore next */
  _R: _ => _
};
`
const BASES = `// scripts/schema-lean.mjs: the methods of every schema class, once per kind.
class SchemaBase {
  constructor() {
    this[TypeId] = variance;
  }
  static annotations(annotations) {
    return make(mergeSchemaAnnotations(this.ast, annotations));
  }
  static pipe() {
    return pipeArguments(this, arguments);
  }
  static toString() {
    return String(this.ast);
  }
  static Type;
  static Encoded;
  static Context;
  static [TypeId] = variance;
}
class LiteralBase extends SchemaBase {
  static annotations(annotations) {
    return makeLiteralClass(this.literals, mergeSchemaAnnotations(this.ast, annotations));
  }
}
class DeclareBase extends SchemaBase {
  static annotations(annotations) {
    return makeDeclareClass(this.typeParameters, mergeSchemaAnnotations(this.ast, annotations));
  }
}
class UnionBase extends SchemaBase {
  static annotations(annotations) {
    return makeUnionClass(this.members, mergeSchemaAnnotations(this.ast, annotations));
  }
}
class TupleTypeBase extends SchemaBase {
  static annotations(annotations) {
    return makeTupleTypeClass(this.elements, this.rest, mergeSchemaAnnotations(this.ast, annotations));
  }
}
class ArrayBase extends TupleTypeBase {
  static annotations(annotations) {
    return makeArrayClass(this.value, mergeSchemaAnnotations(this.ast, annotations));
  }
}
class TypeLiteralBase extends SchemaBase {
  static annotations(annotations) {
    return makeTypeLiteralClass(this.fields, this.records, mergeSchemaAnnotations(this.ast, annotations));
  }
  static pick(...keys) {
    return Struct(struct_.pick(this.fields, ...keys));
  }
  static omit(...keys) {
    return Struct(struct_.omit(this.fields, ...keys));
  }
}
class RefineBase extends SchemaBase {
  static annotations(annotations) {
    return makeRefineClass(this.from, this.filter, mergeSchemaAnnotations(this.ast, annotations));
  }
}
class TransformationBase extends SchemaBase {
  static annotations(annotations) {
    return makeTransformationClass(this.from, this.to, mergeSchemaAnnotations(this.ast, annotations));
  }
}
`

/** [the original text, its replacement], each to be found exactly once. */
const REWRITES = [
  [
    `export function make(ast) {
  return class SchemaClass {
    [TypeId] = variance;
    static ast = ast;
    static annotations(annotations) {
      return make(mergeSchemaAnnotations(this.ast, annotations));
    }
    static pipe() {
      return pipeArguments(this, arguments);
    }
    static toString() {
      return String(ast);
    }
    static Type;
    static Encoded;
    static Context;
    static [TypeId] = variance;
  };
}`,
    `export function make(ast) {
  return class SchemaClass extends SchemaBase {
    static ast = ast;
  };
}`
  ],
  [VARIANCE, VARIANCE + BASES],
  [
    `  return class LiteralClass extends make(ast) {
    static annotations(annotations) {
      return makeLiteralClass(this.literals, mergeSchemaAnnotations(this.ast, annotations));
    }
    static literals = [...literals];
  };`,
    `  return class LiteralClass extends LiteralBase {
    static ast = ast;
    static literals = [...literals];
  };`
  ],
  [
    `  return class DeclareClass extends make(ast) {
    static annotations(annotations) {
      return makeDeclareClass(this.typeParameters, mergeSchemaAnnotations(this.ast, annotations));
    }
    static typeParameters = [...typeParameters];
  };`,
    `  return class DeclareClass extends DeclareBase {
    static ast = ast;
    static typeParameters = [...typeParameters];
  };`
  ],
  [
    `  return class UnionClass extends make(ast) {
    static annotations(annotations) {
      return makeUnionClass(this.members, mergeSchemaAnnotations(this.ast, annotations));
    }
    static members = [...members];
  };`,
    `  return class UnionClass extends UnionBase {
    static ast = ast;
    static members = [...members];
  };`
  ],
  [
    `  return class TupleTypeClass extends make(ast) {
    static annotations(annotations) {
      return makeTupleTypeClass(this.elements, this.rest, mergeSchemaAnnotations(this.ast, annotations));
    }
    static elements = [...elements];
    static rest = [...rest];
  };`,
    `  return class TupleTypeClass extends TupleTypeBase {
    static ast = ast;
    static elements = [...elements];
    static rest = [...rest];
  };`
  ],
  // An array is a tuple type of no elements and `value` as its rest, as makeTupleTypeClass([], [value], ast) makes it.
  [
    `  return class ArrayClass extends makeTupleTypeClass([], [value], ast) {
    static annotations(annotations) {
      return makeArrayClass(this.value, mergeSchemaAnnotations(this.ast, annotations));
    }
    static value = value;
  };`,
    `  return class ArrayClass extends ArrayBase {
    static ast = ast ?? getDefaultTupleTypeAST([], [value]);
    static elements = [];
    static rest = [value];
    static value = value;
  };`
  ],
  [
    `  return class TypeLiteralClass extends make(ast) {
    static annotations(annotations) {
      return makeTypeLiteralClass(this.fields, this.records, mergeSchemaAnnotations(this.ast, annotations));
    }
    static fields = {
      ...fields
    };
    static records = [...records];
    static make = (props, options) => {`,
    `  return class TypeLiteralClass extends TypeLiteralBase {
    static ast = ast;
    static fields = {
      ...fields
    };
    static records = [...records];
    static make = (props, options) => {`
  ],
  [
    `      return getDisableValidationMakeOption(options) ? propsWithDefaults : ParseResult.validateSync(this)(propsWithDefaults);
    };
    static pick(...keys) {
      return Struct(struct_.pick(fields, ...keys));
    }
    static omit(...keys) {
      return Struct(struct_.omit(fields, ...keys));
    }
  };`,
    `      return getDisableValidationMakeOption(options) ? propsWithDefaults : ParseResult.validateSync(this)(propsWithDefaults);
    };
  };`
  ],
  [
    `  return class RefineClass extends make(ast) {
    static annotations(annotations) {
      return makeRefineClass(this.from, this.filter, mergeSchemaAnnotations(this.ast, annotations));
    }
    static [RefineSchemaId] = from;`,
    `  return class RefineClass extends RefineBase {
    static ast = ast;
    static [RefineSchemaId] = from;`
  ],
  [
    `  return class TransformationClass extends make(ast) {
    static annotations(annotations) {
      return makeTransformationClass(this.from, this.to, mergeSchemaAnnotations(this.ast, annotations));
    }
    static from = from;
    static to = to;
  };`,
    `  return class TransformationClass extends TransformationBase {
    static ast = ast;
    static from = from;
    static to = to;
  };`
  ]
]

// A class schema (`Schema.Class`, `TaggedClass`, `TaggedError`, `TaggedRequest`) derives five
// annotated schemas from its fields' schema: its type side, its encoded side, the schema its
// constructor validates with, and two surrogates of its AST. Effect makes them as the class is
// defined; here each is made the first time it is read (the class's AST, its first construction,
// its description), from the same values. The service defines 287 class schemas at start.
const LAZY_CLASS_PARTS = [
  [
    `  const typeSchema_ = typeSchema(schema);
  const declarationSurrogate = typeSchema_.annotations({
    identifier,
    ...typeAnnotations
  });
  const typeSide = typeSchema_.annotations({
    [AST.AutoTitleAnnotationId]: \`\${identifier} (Type side)\`,
    ...typeAnnotations
  });
  const constructorSchema = schema.annotations({
    [AST.AutoTitleAnnotationId]: \`\${identifier} (Constructor)\`,
    ...typeAnnotations
  });
  const encodedSide = schema.annotations({
    [AST.AutoTitleAnnotationId]: \`\${identifier} (Encoded side)\`,
    ...encodedAnnotations
  });
  const transformationSurrogate = schema.annotations({
    ...encodedAnnotations,
    ...typeAnnotations,
    ...transformationAnnotations
  });
  const fallbackInstanceOf = u => Predicate.hasProperty(u, classSymbol) && ParseResult.is(typeSide)(u);`,
    `  // scripts/schema-lean.mjs: each derived schema made when first read.
  const lazily = build => {
    let value;
    let made = false;
    return () => {
      if (!made) {
        value = build();
        made = true;
      }
      return value;
    };
  };
  const typeSchema_ = lazily(() => typeSchema(schema));
  const declarationSurrogate = lazily(() => typeSchema_().annotations({
    identifier,
    ...typeAnnotations
  }));
  const typeSide = lazily(() => typeSchema_().annotations({
    [AST.AutoTitleAnnotationId]: \`\${identifier} (Type side)\`,
    ...typeAnnotations
  }));
  const constructorSchema = lazily(() => schema.annotations({
    [AST.AutoTitleAnnotationId]: \`\${identifier} (Constructor)\`,
    ...typeAnnotations
  }));
  const encodedSide = lazily(() => schema.annotations({
    [AST.AutoTitleAnnotationId]: \`\${identifier} (Encoded side)\`,
    ...encodedAnnotations
  }));
  const transformationSurrogate = lazily(() => schema.annotations({
    ...encodedAnnotations,
    ...typeAnnotations,
    ...transformationAnnotations
  }));
  const fallbackInstanceOf = u => Predicate.hasProperty(u, classSymbol) && ParseResult.is(typeSide())(u);`
  ],
  [
    `props = ParseResult.validateSync(constructorSchema)(props);`,
    `props = ParseResult.validateSync(constructorSchema())(props);`
  ],
  [`ParseResult.encodeUnknown(typeSide)(input, options)`, `ParseResult.encodeUnknown(typeSide())(input, options)`],
  [
    `[AST.SurrogateAnnotationId]: declarationSurrogate.ast,`,
    `[AST.SurrogateAnnotationId]: declarationSurrogate().ast,`
  ],
  [`out = transform(encodedSide, declaration, {`, `out = transform(encodedSide(), declaration, {`],
  [
    `[AST.SurrogateAnnotationId]: transformationSurrogate.ast,`,
    `[AST.SurrogateAnnotationId]: transformationSurrogate().ast,`
  ],
  [
    "return `(${String(encodedSide)} <-> ${identifier})`;",
    "return `(${String(encodedSide())} <-> ${identifier})`;"
  ]
]

/** Effect's Schema.js (dist/esm) with its schema classes made as above; throws when its text differs. */
export const leanSchemaSource = (source) =>
  rewriteChecked(source, [...REWRITES, ...LAZY_CLASS_PARTS], {
    plugin: "schema-lean.mjs",
    file: "effect's dist/esm/Schema.js",
    library: "effect"
  })

/** @type {import("esbuild").Plugin} */
export const schemaLean = {
  name: "schema-lean",
  setup(build) {
    build.onLoad({ filter: /[\\/]effect[\\/]dist[\\/]esm[\\/]Schema\.js$/ }, async (args) => ({
      contents: leanSchemaSource(await readFile(args.path, "utf8")),
      loader: "js"
    }))
  }
}
