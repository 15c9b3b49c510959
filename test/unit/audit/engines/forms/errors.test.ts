import { describe, expect, it } from 'vitest';
import { describesError, errorMessageProblems, fieldsNamed, looksLikeError } from '../../../../../src/audit/engines/forms/errors.ts';

describe('error message wording', () => {
  it.each([
    'Invalid value for age.',
    'Please fill the field correctly.',
    'You need to fix the errors on this page before continuing.',
    'is not valid',
    'Please enter a valid email address',
    'Name cannot be empty',
    'Error: enter your date of birth',
  ])('%j reads like an error', (t) => expect(looksLikeError(t)).toBe(true));

  it.each([
    'Fields marked * are required',
    'Please enter your email address to subscribe',
    'To see all products, leave the field empty.',
    'It will be on your last payslip. For example, JH 21 90 0A.',
    'All fields are required',
  ])('%j is an instruction, not an error', (t) => expect(looksLikeError(t)).toBe(false));

  it('tells a message that says what to do from one that only says "invalid"', () => {
    expect(describesError('Invalid value for age.', ['Age (years)'])).toBe(false);
    expect(describesError('Phone number is not valid', ['Phone number'])).toBe(false);
    expect(describesError('Please fill the field correctly.', ['Age', 'Name'])).toBe(false);
    expect(describesError('Invalid value for age. Age must be at least 1.', ['Age (years)'])).toBe(true);
    expect(describesError('Enter a date in the format DD/MM/YYYY', ['Date'])).toBe(true);
    expect(describesError('Name and color cannot be empty.', ['Name', 'Color'])).toBe(true);
  });

  it('finds the fields a message names, ignoring bracketed hints and required markers', () => {
    expect(fieldsNamed('Invalid value for age.', ['Age (years)', 'Name'])).toEqual(['Age (years)']);
    expect(fieldsNamed('Please fill the field correctly.', ['Age (years)', 'Name'])).toEqual([]);
    expect(fieldsNamed('Name is required', ['Name (required)', 'Address'])).toEqual(['Name (required)']);
    expect(fieldsNamed('Surname is invalid', ['Name'])).toEqual([]);
  });
});

describe('error message problems (ACT 36b590)', () => {
  const base = { associated: false, hiddenFromAT: false, fieldNames: ['Age (years)', 'Name'] };

  it('passes a message tied to its field that says how to fix the value', () => {
    expect(errorMessageProblems({ ...base, associated: true, text: 'Invalid value for age. Age must be at least 1.' })).toEqual([]);
  });

  it('passes an error summary that names the field and the fix, even untied', () => {
    expect(errorMessageProblems({ ...base, text: 'Age must be a whole number, e.g. 32' })).toEqual([]);
  });

  it('flags a message that names no field', () => {
    expect(errorMessageProblems({ ...base, text: 'Please fill the field correctly.' })).toEqual(['names-no-field', 'not-descriptive']);
  });

  it('flags a message that only says the value is invalid', () => {
    expect(errorMessageProblems({ ...base, text: 'Invalid value for age.' })).toEqual(['not-descriptive']);
    expect(errorMessageProblems({ ...base, associated: true, text: 'is not valid' })).toEqual(['not-descriptive']);
  });

  it('flags a message hidden from screen readers', () => {
    expect(errorMessageProblems({ ...base, hiddenFromAT: true, text: 'Invalid value for age. Age must be at least 1.' })).toEqual(['hidden-from-at']);
  });

  it('flags a message naming a label two fields share', () => {
    expect(errorMessageProblems({ ...base, fieldNames: ['Name', 'Address', 'Name', 'Address'], text: 'Name is invalid: use letters only' })).toEqual(['ambiguous-field']);
  });
});
