import FieldAdvancing
import KeyboardAvoidance
import ResponderBus
import TextViewOrdering

enum KeyboardAvoidanceFactory { static func make() -> any ResponderPlugin { KeyboardAvoidance() } }
enum FieldAdvancingFactory { static func make() -> any ResponderPlugin { FieldAdvancing() } }
enum TextViewOrderingFactory { static func make() -> any ResponderPlugin { TextViewOrdering() } }
