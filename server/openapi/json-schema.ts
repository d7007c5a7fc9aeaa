import type * as v from 'valibot';

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it) for the subset below. */
export type JsonSchema = { [keyword: string]: unknown };

/** The parts of valibot schemas and pipe actions this converter reads. */
interface ValibotNode {
  kind: string;
  type: string;
  entries?: Record<string, ValibotNode>;
  wrapped?: ValibotNode;
  options?: readonly unknown[];
  item?: ValibotNode;
  key?: ValibotNode;
  value?: ValibotNode;
  literal?: unknown;
  requirement?: unknown;
  /** Of a `description` action: the contract's own words on a field (list cursors, bounded totals). */
  description?: string;
  pipe?: readonly ValibotNode[];
}

const OPTIONAL_TYPES = new Set(['optional', 'exact_optional', 'nullish']);

const FORMATS: Record<string, string> = {
  email: 'email',
  url: 'uri',
  uuid: 'uuid',
  iso_date: 'date',
  iso_timestamp: 'date-time',
};

/**
 * Applies one pipe action. Actions without a JSON Schema equivalent (custom checks, trimming)
 * are left out: the document then promises less than the server enforces, never more.
 */
function applyAction(schema: JsonSchema, action: ValibotNode): void {
  const { requirement } = action;
  switch (action.type) {
    case 'min_length':
      schema[schema.type === 'array' ? 'minItems' : 'minLength'] = requirement;
      break;
    case 'max_length':
      schema[schema.type === 'array' ? 'maxItems' : 'maxLength'] = requirement;
      break;
    case 'non_empty':
      schema[schema.type === 'array' ? 'minItems' : 'minLength'] = 1;
      break;
    case 'regex':
      if (requirement instanceof RegExp) schema.pattern = requirement.source;
      break;
    case 'integer':
      schema.type = 'integer';
      break;
    case 'min_value':
      schema.minimum = requirement;
      break;
    case 'max_value':
      schema.maximum = requirement;
      break;
    case 'description':
      schema.description = action.description;
      break;
    default: {
      const format = FORMATS[action.type];
      if (format !== undefined) schema.format = format;
    }
  }
}

function convertNode(node: ValibotNode): JsonSchema {
  if (node.pipe !== undefined) {
    const [base, ...actions] = node.pipe;
    const schema = base === undefined ? {} : convertNode(base);
    for (const action of actions) {
      if (action.kind === 'schema') Object.assign(schema, convertNode(action));
      else applyAction(schema, action);
    }
    return schema;
  }
  switch (node.type) {
    case 'string':
      return { type: 'string' };
    case 'number':
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'literal':
      return { const: node.literal };
    case 'picklist':
      return { enum: [...(node.options ?? [])] };
    case 'array':
      return { type: 'array', items: node.item ? convertNode(node.item) : {} };
    case 'record':
      return {
        type: 'object',
        ...(node.key ? { propertyNames: convertNode(node.key) } : {}),
        additionalProperties: node.value ? convertNode(node.value) : {},
      };
    case 'nullable':
    case 'nullish':
      return { anyOf: [node.wrapped ? convertNode(node.wrapped) : {}, { type: 'null' }] };
    case 'optional':
    case 'exact_optional':
      return node.wrapped ? convertNode(node.wrapped) : {};
    case 'object':
    case 'strict_object':
    case 'loose_object': {
      const entries = Object.entries(node.entries ?? {});
      const required = entries.filter(([, entry]) => !OPTIONAL_TYPES.has(entry.type)).map(([name]) => name);
      return {
        type: 'object',
        properties: Object.fromEntries(entries.map(([name, entry]) => [name, convertNode(entry)])),
        ...(required.length > 0 ? { required } : {}),
        ...(node.type === 'strict_object' ? { additionalProperties: false } : {}),
      };
    }
    case 'union':
      // Options are whole schemas here (a picklist keeps its strings in `options` too).
      return { anyOf: ((node.options ?? []) as unknown as ValibotNode[]).map(convertNode) };
    case 'variant':
      // Objects told apart by a literal key (an enrollment's seat: a person or a device): exactly one fits.
      return { oneOf: ((node.options ?? []) as unknown as ValibotNode[]).map(convertNode) };
    case 'unknown':
      // Any JSON value: an audit event's details, the values of a changed field.
      return {};
    case 'custom':
      // A check written as code (an alias map that must not be an array) has no JSON Schema
      // counterpart; the schemas piped after it describe the value.
      return {};
    default:
      throw new Error(`No JSON Schema conversion for valibot "${node.type}" schemas.`);
  }
}

/** JSON Schema of a contract schema, for the kinds of schema the contract uses. */
export function toJsonSchema(schema: v.GenericSchema): JsonSchema {
  return convertNode(schema as unknown as ValibotNode);
}
