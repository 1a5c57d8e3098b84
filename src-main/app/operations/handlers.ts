import type { Handlers } from '../../../src-shared/contract';
import type { OperationsService } from './service';

export const operationsHandlers = (operations: OperationsService): Handlers['operations'] => ({
  confirm: (request) => operations.confirm(request),
  exportUnsigned: ({ operationId }) => operations.exportUnsigned(operationId),
  unsignedTransaction: ({ operationId }) => operations.unsignedTransaction(operationId),
  submitSigned: (request) => operations.submitSigned(request),
  awaitingSignature: () => operations.awaitingSignature(),
  discard: async ({ operationId }) => operations.discard(operationId),
  pending: () => operations.pending(),
  resolve: (request) => operations.resolve(request),
});
