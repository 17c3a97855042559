// Payload shaping: a hook's matches in a chain update, projected through its options into the webhook body.
export { shapePayload } from './shape-payload.js';
export { payloadTextParts, serializePayload, type PayloadTextParts } from './serialize-payload.js';
export type { BlockMatch, ShapeInput } from './shape-payload.js';
export type {
  DecodedClarityValue,
  PayloadBlock,
  PayloadBlockMetadata,
  PayloadBlockSignatures,
  PayloadClarityValue,
  PayloadContractCallOperation,
  PayloadContractDeployOperation,
  PayloadContractLogOperation,
  PayloadOperation,
  PayloadTransaction,
  PayloadTransactionMetadata,
  WebhookPayload,
} from './webhook-payload.js';
