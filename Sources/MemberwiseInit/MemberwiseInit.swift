/// The access level of the initializer `@MemberwiseInit` writes.
public enum MemberwiseInitAccess {
    case `public`, package, `internal`
}

/// Writes the memberwise initializer Swift would synthesize, at the access level asked for.
///
/// Swift synthesizes a memberwise `init` only at internal access, so every public value type used
/// across modules (almost all of FollowMe's: the modules are split by concern) needs one written by
/// hand: one parameter per stored property, `self.x = x` per line — code that must be kept in step
/// with the property list by hand and that a duplicate scan rightly lists as the same lines again
/// and again. This macro writes it from the property list instead:
///
/// - one parameter per stored instance property, in declaration order, labelled with its name;
/// - a `var` with an initial value becomes a parameter with that default (as Swift's own memberwise
///   init does); a `let` with an initial value is left out (it cannot be assigned);
/// - computed and static properties are skipped; function-typed properties get `@escaping`;
/// - `inlinable: true` marks the init `@inlinable` (for the hot-path value types of the control loop).
///
/// Every stored property must spell out its type. Write the init by hand where it does more than
/// assign (validation, derived values, other labels).
@attached(member, names: named(init))
public macro MemberwiseInit(_ access: MemberwiseInitAccess = .public, inlinable: Bool = false) =
    #externalMacro(module: "MemberwiseInitMacros", type: "MemberwiseInitMacro")
