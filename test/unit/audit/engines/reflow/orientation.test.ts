import { describe, expect, it } from 'vitest';
import { orientationVerdict, rotationDegrees, turnBetween, type OrientationState } from '../../../../../src/audit/engines/reflow/orientation.ts';

const state = (rotation: number, visibleText = 100, sample = 'Page content'): OrientationState => ({ rotation, visibleText, sample, id: 0 });

describe('rotationDegrees', () => {
  it('reads the turn of a computed transform matrix, 2D or 3D', () => {
    expect(rotationDegrees('none', 'none')).toBe(0);
    expect(rotationDegrees('matrix(0, 1, -1, 0, 0, 0)', 'none')).toBeCloseTo(90);
    expect(rotationDegrees('matrix3d(0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)', 'none')).toBeCloseTo(-90);
    expect(rotationDegrees('matrix(1, -1.22465e-15, 1.22465e-15, 1, 0, 0)', 'none')).toBeCloseTo(0);
    expect(rotationDegrees('matrix(1, 0, 0, 1, 100, 0)', 'none')).toBe(0);
  });

  it('adds the rotate property, about the screen axis only', () => {
    expect(rotationDegrees('none', '90deg')).toBe(90);
    expect(rotationDegrees('none', '1.5708rad')).toBeCloseTo(90, 2);
    expect(rotationDegrees('none', '0.25turn')).toBe(90);
    expect(rotationDegrees('none', 'z 90deg')).toBe(90);
    expect(rotationDegrees('none', '0 0 1 90deg')).toBe(90);
    expect(rotationDegrees('none', 'x 90deg')).toBe(0);
    expect(rotationDegrees('matrix(0, 1, -1, 0, 0, 0)', '90deg')).toBeCloseTo(180);
  });
});

describe('turnBetween', () => {
  it('is the smallest angle between two rotations', () => {
    expect(turnBetween(90, 0)).toBe(90);
    expect(turnBetween(-90, 0)).toBe(90);
    expect(turnBetween(360, 0)).toBe(0);
    expect(turnBetween(92.5, 2.5)).toBe(90);
    expect(turnBetween(270, 0)).toBe(90);
  });
});

describe('orientationVerdict', () => {
  it('confirms a quarter turn in one orientation only (ACT b33eff)', () => {
    expect(orientationVerdict(state(90), state(0), [])).toMatchObject({ type: 'confirmed', kind: 'rotated', orientation: 'portrait' });
    expect(orientationVerdict(state(2.5), state(92.5), [])).toMatchObject({ type: 'confirmed', kind: 'rotated', orientation: 'landscape' });
  });

  it('passes the same turn in both orientations, a full turn, a small tilt, and a page with no visible text', () => {
    expect(orientationVerdict(state(90), state(90), [])).toBeNull();
    expect(orientationVerdict(state(360), state(0), [])).toBeNull();
    expect(orientationVerdict(state(30), state(0), [])).toBeNull();
    expect(orientationVerdict(state(90, 0), state(0, 0), [])).toBeNull();
  });

  it('confirms content hidden in one orientation behind a message to turn the device, and asks for review without the message', () => {
    expect(orientationVerdict(state(0, 30, 'Please rotate your device'), state(0, 900), [])).toMatchObject({ type: 'confirmed', kind: 'hidden', orientation: 'portrait' });
    expect(orientationVerdict(state(0, 900), state(0, 0, ''), [])).toMatchObject({ type: 'needs_review', kind: 'hidden', orientation: 'landscape' });
    expect(orientationVerdict(state(0, 600), state(0, 900), [])).toBeNull();
    expect(orientationVerdict(state(0, 5), state(0, 30), [])).toBeNull();
  });

  it('asks for review of a call to screen.orientation.lock() when nothing else shows', () => {
    expect(orientationVerdict(state(0), state(0), ['portrait'])).toMatchObject({ type: 'needs_review', kind: 'locked', orientation: 'portrait' });
    expect(orientationVerdict(state(0), state(0), [])).toBeNull();
  });
});
