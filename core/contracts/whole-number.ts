import { type IntegerOptions, Type } from '@sinclair/typebox'

/**
 * A whole number in an answer the shop sends. Elysia's `t.Integer` is a transform that also accepts
 * numeric text, which request bodies need; in an answer's schema that transform makes Elysia run
 * TypeBox's value encoder over the whole answer on every response (about a tenth of a rate quote's CPU).
 * Answers hold numbers already, so their schemas use TypeBox's plain integer.
 */
export const wholeNumber = (options?: IntegerOptions) => Type.Integer(options)
