import { expect } from 'chai';
import { StackhooksError, type FieldProblem } from '../../../core/hooks/errors.js';

/** The validation error `check` throws; fails the test when it returns or throws anything else. */
export function validationErrorOf(check: () => unknown): StackhooksError {
  try {
    check();
  } catch (err) {
    expect(err).to.be.instanceOf(StackhooksError);
    expect((err as StackhooksError).code).to.equal('validation');
    return err as StackhooksError;
  }
  expect.fail('expected a validation error, but the input was accepted');
}

/** Asserts that the first problem (the message) is `field message`, and that details start with it. */
export function expectFirstProblem(check: () => unknown, field: string, message: string): FieldProblem[] {
  const err = validationErrorOf(check);
  expect(err.message).to.equal(`${field} ${message}`);
  expect(err.details[0]).to.deep.equal({ field, message });
  return err.details;
}
