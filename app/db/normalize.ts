import {
  OperationNodeTransformer,
  PostgresAdapter,
  PrimitiveValueListNode,
  ValueNode,
  type Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from "kysely";

// The two engines disagree on how values look; everything that smooths that over lives here.

export type Dialect = "sqlite" | "postgres";

export function dialectOf(db: Pick<Kysely<never>, "getExecutor">): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}

/** pg returns Date for timestamptz; SQLite returns the stored text. Both come out as ISO strings. */
export function toIso(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "string") {
    // Text without a zone (e.g. SQLite's datetime('now') written by hand) means UTC, not local time.
    const text = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value) ? `${value.replace(" ", "T")}Z` : value;
    const date = new Date(text);
    if (!Number.isNaN(date.getTime())) return date.toISOString();
  }
  throw new TypeError(`not a timestamp: ${String(value)}`);
}

export function toBool(value: unknown): boolean {
  return value === true || value === 1 || value === "1" || value === "t" || value === "true";
}

export function toCount(value: unknown): number {
  return Number(value ?? 0);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs on both engines; PostgreSQL rejects comparing a uuid with anything else. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** better-sqlite3 binds neither booleans nor Dates: write them as 0/1 and ISO text, as PostgreSQL would read them. */
class SqliteValueTransformer extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    const value = sqliteValue(node.value);
    return value === node.value ? node : { ...node, value };
  }

  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    return PrimitiveValueListNode.create(node.values.map(sqliteValue));
  }
}

function sqliteValue(value: unknown): unknown {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  return value;
}

export class SqliteValuesPlugin implements KyselyPlugin {
  readonly #transformer = new SqliteValueTransformer();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
