import SwiftCompilerPlugin
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// The implementation of `@MemberwiseInit` (declared in the `MemberwiseInit` module).
public struct MemberwiseInitMacro: MemberMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        var access = "public"
        var inlinable = false
        if case .argumentList(let arguments) = node.arguments {
            for argument in arguments {
                let text = argument.expression.trimmedDescription
                if argument.label?.text == "inlinable" {
                    inlinable = text == "true"
                } else {
                    access = text.hasPrefix(".") ? String(text.dropFirst()) : text
                    access = access.filter { $0 != "`" }
                }
            }
        }
        var parameters: [String] = []
        var assignments: [String] = []
        for member in declaration.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            let modifiers = variable.modifiers.map(\.name.text)
            if modifiers.contains("static") || modifiers.contains("class") || modifiers.contains("lazy") { continue }
            let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
            for binding in variable.bindings {
                // Computed properties (a getter block) and observers are not stored inputs.
                if let accessor = binding.accessorBlock {
                    if case .getter = accessor.accessors { continue }
                    if case .accessors(let list) = accessor.accessors,
                        list.contains(where: { $0.accessorSpecifier.tokenKind == .keyword(.get) }) { continue }
                }
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
                if isLet && binding.initializer != nil { continue }
                guard let type = binding.typeAnnotation?.type else {
                    throw MemberwiseInitError("`\(name)` needs an explicit type for @MemberwiseInit")
                }
                var typeText = type.trimmedDescription
                if isFunctionType(type) { typeText = "@escaping " + typeText }
                var parameter = "\(name): \(typeText)"
                if let value = binding.initializer?.value { parameter += " = \(value.trimmedDescription)" }
                parameters.append(parameter)
                assignments.append("self.\(name) = \(name)")
            }
        }
        let prefix = (inlinable ? "@inlinable " : "") + (access == "internal" ? "" : access + " ")
        let body = assignments.isEmpty ? "" : "\n    " + assignments.joined(separator: "\n    ") + "\n"
        return ["\(raw: prefix)init(\(raw: parameters.joined(separator: ", "))) {\(raw: body)}"]
    }

    /// Whether `type` is a closure type (possibly `@Sendable`), which needs `@escaping` as a parameter.
    private static func isFunctionType(_ type: TypeSyntax) -> Bool {
        if type.is(FunctionTypeSyntax.self) { return true }
        if let attributed = type.as(AttributedTypeSyntax.self) { return attributed.baseType.is(FunctionTypeSyntax.self) }
        return false
    }
}

struct MemberwiseInitError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

@main
struct MemberwiseInitPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [MemberwiseInitMacro.self]
}
